// Relays streamed speech as it is generated. Each upstream chunk is measured and forwarded at once
// (wrapped in an SSE delta for `sse`); when the upstream finishes, the request is billed before the
// stream closes (the `sse` done event carries that Usage). A client that leaves mid-stream aborts
// the upstream, and what was produced until then is billed.
import type { Readable } from 'node:stream';
import type { Usage } from '../../billing/usage';
import { SILENT_LOG, type GatewayLog } from '../../common/gateway-log';
import { pullReadable } from '../../common/pull-readable';
import { audioDeltaEvent, audioDoneEvent } from '../domain/speech-events';
import type { StreamedAudioMeter } from '../domain/streamed-audio';
import { requestLogFields } from '../../observability/logging/request-log-fields';
import type { PendingCharge, ProgressTracker } from '../../idempotency/stream-progress';

export interface SpeechStreamParts {
  upstream: AsyncIterable<Buffer>;
  meter: StreamedAudioMeter;
  sse: boolean;
  /** Records the usage of `outputSeconds` of produced audio; throws when billing cannot be recorded. */
  bill(outputSeconds: string): Promise<Usage>;
  /** Frees the model's concurrency slot; called once, when the upstream is done. */
  release(): void;
  requestId: string;
  /** The client's x-request-id, for the log line of a failed bill. */
  correlationId?: string | null;
  /** The request's trace id when tracing is on, for the same line. */
  traceId?: string;
  /** Where what was relayed is made durable, so a crash still bills it (src/idempotency/stream-progress.ts). */
  progress?: { tracker: ProgressTracker; pending(outputSeconds: string): PendingCharge };
  /** Context `speech-stream`: where a failed bill nobody can be told of is logged. */
  log?: GatewayLog;
}

export function speechStream(parts: SpeechStreamParts): Readable {
  return pullReadable(relay(parts), { coalesce: true });
}

async function* relay(parts: SpeechStreamParts): AsyncGenerator<Buffer | string> {
  const wrap = (audio: Buffer) => (parts.sse ? audioDeltaEvent(audio) : audio);
  const progress = parts.progress;
  const pending = () => progress!.pending(parts.meter.seconds());
  let finished = false;
  try {
    for await (const chunk of parts.upstream) {
      const audio = parts.meter.push(chunk);
      if (audio.length === 0) continue;
      yield wrap(audio);
      progress?.tracker.observe(audio.length, pending);
    }
    const rest = parts.meter.end();
    if (rest.length > 0) yield wrap(rest);
    finished = true;
    parts.release();
    const usage = await parts.bill(parts.meter.seconds());
    if (parts.sse) yield audioDoneEvent(usage);
  } finally {
    if (!finished) await billAbandoned(parts);
    await progress?.tracker.settled();
  }
}

/** The client is gone (or the upstream broke): nobody can be told, so a billing failure is logged. */
async function billAbandoned(parts: SpeechStreamParts): Promise<void> {
  parts.release();
  try {
    await parts.bill(parts.meter.seconds());
  } catch (error) {
    (parts.log ?? SILENT_LOG).error(requestLogFields({ requestId: parts.requestId, correlationId: parts.correlationId ?? null, traceId: parts.traceId }, { err: error }), 'billing an interrupted speech stream failed');
  }
}
