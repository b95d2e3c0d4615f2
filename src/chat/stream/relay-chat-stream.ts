// The streamed answer: upstream SSE chunks are relayed as they arrive, with what was relayed tallied
// so the request is billed however the stream ends: after the last chunk (then the client gets the
// gateway's usage chunk if it asked), on a client disconnect (the upstream request is aborted by
// the request's signal) or on an upstream failure mid-stream (then an error event ends the stream).
// The answer has left by the time it is billed, so a failed append spools the usage (delivered) and
// the stream still ends normally, usage chunk included; only when the spool fails too does an error
// event end it (docs/metering.md, "Spool").
import type { Dispatcher } from 'undici';
import type { MeasuredAudio } from '../../billing/metering/measurement';
import { chatClientUsage } from '../chat-usage';
import type { ChargeInput } from '../../billing/billing.service';
import type { MeteredUsage } from '../../billing/metering/meter';
import type { Usage } from '../../billing/usage';
import { ApiError } from '../../common/api-error';
import { SILENT_LOG, type GatewayLog } from '../../common/gateway-log';
import type { RequestContext } from '../../common/request-context';
import type { CatalogModel } from '../../catalog/catalog.types';
import { relayableDetail } from '../../upstream/upstream-errors';
import type { StreamChunk } from '../chat.types';
import { CHAT_ENDPOINT, type ChatDependencies } from '../create-chat-completion/complete-chat';
import type { PreparedChat } from '../create-chat-completion/prepare-chat-request';
import type { AnswerModeration } from '../response/answer-moderation';
import { chatMeasurement } from '../response/chat-measurement';
import { measureOutputClips } from '../response/output-audio';
import { tallyTools } from '../response/tool-usage';
import { upstreamReportOf } from '../response/upstream-report';
import { clientChunk, identityOf, SSE_DONE, sseFrame, type StreamIdentity, trailingChunk } from './client-chunks';
import { StreamTally } from './stream-tally';
import { isDoneData, sseDataOf } from './upstream-events';
import { requestLogFields } from '../../observability/logging/request-log-fields';

export interface StreamRelay {
  deps: ChatDependencies;
  prepared: PreparedChat;
  ctx: RequestContext;
  response: Dispatcher.ResponseData;
  moderation: AnswerModeration | null;
  /** Frees the model's concurrency slot; called once the upstream is done. */
  release: () => void;
  /** Called last, once the stream ended however it did (e.g. a budget hold's release): no generator wraps this one. */
  ended?: () => Promise<void>;
  now: () => Date;
  /** Context `chat-stream`: where a failure nobody can be told of any more is logged. */
  log?: GatewayLog;
}

export async function* relayChatStream(relay: StreamRelay): AsyncGenerator<string> {
  const { prepared, ctx } = relay;
  const tally = new StreamTally();
  let identity: StreamIdentity | null = null;
  let billing: Promise<{ usage: Usage; metered: MeteredUsage }> | null = null;
  const bill = () => (billing ??= chargeStream(relay, tally));
  // What reached the client, made durable at a bounded interval: a crash still bills it (docs/metering.md).
  const progress = relay.deps.billing.streamProgress(ctx.requestId);
  const pending = () => relay.deps.billing.pendingCharge(chargeInputOf(relay, tally, []));
  try {
    let finished = false;
    // One generator between the upstream's body and the client, not two: each layer costs every event promise turns.
    for await (const data of sseDataOf(relay.response.body, { modelId: prepared.model.id, maxEventChars: relay.deps.upstream.limits.maxEventBytes })) {
      if (isDoneData(data)) {
        finished = true;
        break;
      }
      const chunk = upstreamChunkOf(data, relay);
      identity ??= identityOf(chunk, prepared.model.id, relay.now());
      const relayed = clientChunk(chunk, prepared.model.id, prepared.includeUsage);
      const frame = relayed ? sseFrame(relayed) : null;
      if (frame !== null) yield frame;
      tally.observe(chunk);
      if (frame !== null) progress.observe(frame.length, pending);
    }
    if (!finished) throw ApiError.upstream('upstream_stream_incomplete', `The model '${prepared.model.id}' ended the stream before it finished.`);
    relay.release();
    const { usage, metered } = await bill();
    if (relay.moderation) {
      const moderation = await relay.moderation.finish(tally.texts());
      yield sseFrame(trailingChunk(identity ?? fallbackIdentity(relay), { moderation }));
    }
    if (prepared.includeUsage) yield sseFrame(trailingChunk(identity ?? fallbackIdentity(relay), { usage: chatClientUsage(usage, metered.audioTokens, ctx.caller.organization.usage_format) }));
    yield SSE_DONE;
  } catch (error) {
    if (ctx.signal.aborted) return;
    relay.release();
    const failure = error instanceof ApiError ? error : ApiError.upstream('upstream_stream_failed', `The model '${prepared.model.id}' stream failed.`);
    await bill().catch(() => undefined);
    yield sseFrame(failure.toBody());
  } finally {
    relay.release();
    await bill().catch((error: unknown) => (relay.log ?? SILENT_LOG).error(requestLogFields(ctx, { err: error }), 'billing an interrupted stream failed'));
    await progress.settled();
    await relay.ended?.();
  }
}

/** An upstream event's chunk; an error event or one that is not a JSON object is a failure. */
function upstreamChunkOf(data: string, relay: StreamRelay): StreamChunk {
  const chunk = parseChunk(data);
  if (!chunk || chunk.error || chunk.object === 'error') {
    const model = relay.prepared.model.id;
    throw ApiError.upstream('upstream_stream_failed', `The model '${model}' failed mid-stream${errorDetail(chunk, relay.prepared.model)}.`);
  }
  return chunk;
}

function parseChunk(data: string): StreamChunk | null {
  try {
    const parsed = JSON.parse(data) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as StreamChunk) : null;
  } catch {
    return null;
  }
}

/** The upstream's words, with its credentials cut out before they are bounded (upstream-errors.ts). */
function errorDetail(chunk: StreamChunk | null, model: CatalogModel): string {
  const error = chunk?.error as { message?: unknown } | undefined;
  const message = error?.message ?? chunk?.message;
  return typeof message === 'string' ? `: ${relayableDetail(message, model)}` : '';
}

async function chargeStream(relay: StreamRelay, tally: StreamTally): Promise<{ usage: Usage; metered: MeteredUsage }> {
  return relay.deps.billing.chargeMetered(chargeInputOf(relay, tally, await streamedAudio(relay, tally)));
}

/** The charge of what was relayed so far (a progress record leaves streamed audio out: it needs decoding). */
function chargeInputOf(relay: StreamRelay, tally: StreamTally, outputAudio: MeasuredAudio[]): ChargeInput {
  const { prepared, ctx } = relay;
  const measurement = chatMeasurement({
    report: upstreamReportOf(tally.upstreamUsage),
    media: prepared.media,
    outputAudio,
    tools: tallyTools(tally.messages(), prepared.webSearchRequested),
    fallback: { promptTokens: prepared.promptTextEstimate, completionTokens: tally.countedCompletionTokens },
    limits: prepared.reportLimits,
    relayedTokens: tally.relayedTokenEstimate,
  });
  return { ctx, model: prepared.model, endpoint: CHAT_ENDPOINT, measurement, delivered: true };
}

/** Audio cut off mid-stream may not decode; its tokens are then billed as text rather than lost. */
async function streamedAudio(relay: StreamRelay, tally: StreamTally): Promise<MeasuredAudio[]> {
  try {
    return await measureOutputClips(tally.audioClips(), relay.prepared.audioOutput?.format, relay.prepared.model);
  } catch (error) {
    (relay.log ?? SILENT_LOG).warn(requestLogFields(relay.ctx, { err: error }), 'streamed audio could not be measured');
    return [];
  }
}

function fallbackIdentity(relay: StreamRelay): StreamIdentity {
  return { id: `chatcmpl-${relay.ctx.requestId}`, created: Math.floor(relay.now().getTime() / 1000), model: relay.prepared.model.id };
}
