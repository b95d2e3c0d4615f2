// What one request's media work runs under: whose it is (the per-organization slot cap and the
// media-seconds counter), when it must stop (the client's signal), and the limits each child gets.
// Built per request by MediaGate; library calls without one still get the default child limits.
import type { ChildLimits } from './admission/child-limits';
import type { MediaSlots } from './admission/media-slots';
import type { MediaSpans } from '../observability/tracing/step-span';

export interface MediaObserver {
  /** A child ran for `seconds` of wall time for the organization (whatever its outcome). */
  mediaProcess(organizationId: string, seconds: number): void;
  /** A request was refused with media_busy. */
  mediaBusy(organizationId: string): void;
}

export interface MediaWork {
  organizationId: string;
  /** Aborted when the client leaves or the request gives up: running children are killed. */
  signal?: AbortSignal;
  slots: MediaSlots;
  childLimits: ChildLimits;
  /** Largest width x height of an image or video frame accepted for decoding. */
  maxPixels: number;
  observer: MediaObserver | null;
  /** The span of each ffmpeg/ffprobe run when tracing is on. */
  spans?: MediaSpans | null;
}

/** The same work, stopped also when `signal` fires (e.g. a sibling part failed). */
export function withSignal(work: MediaWork, signal: AbortSignal): MediaWork {
  return { ...work, signal: work.signal ? AbortSignal.any([work.signal, signal]) : signal };
}
