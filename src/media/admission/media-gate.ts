// The gateway's media limits as one runtime part: the shared slots, the child limits and the pixel
// cap from the environment, and the observer that counts media seconds. A request asks it for its
// MediaWork (organization, client signal) and hands that to every media call.
import { MediaSlots } from './media-slots';
import { DEFAULT_MEDIA_ENV, type MediaEnv } from './media-env';
import type { MediaObserver, MediaWork } from '../media-work';
import type { MediaSpans } from '../../observability/tracing/step-span';

export interface MediaRequest {
  caller: { organizationId: string };
  signal: AbortSignal;
}

export class MediaGate {
  readonly slots: MediaSlots;

  constructor(
    readonly env: MediaEnv = DEFAULT_MEDIA_ENV,
    private readonly observer: MediaObserver | null = null,
    private readonly spans: MediaSpans | null = null,
  ) {
    this.slots = new MediaSlots(env.slots);
  }

  forRequest(request: MediaRequest): MediaWork {
    return {
      organizationId: request.caller.organizationId,
      signal: request.signal,
      slots: this.slots,
      childLimits: this.env.childLimits,
      maxPixels: this.env.maxPixels,
      observer: this.observer,
      spans: this.spans,
    };
  }
}
