// The Idempotency-Key seam (docs/idempotency.md): after authentication and the body (preHandler) the
// key is validated, the request fingerprinted and a new key claimed outright; a key used before is
// decided on from its stream: run (claim), 409 in use, 422 reused, 409 not kept, or the recorded answer
// replayed. A claimed run's answer is recorded as it leaves (onSend): a plain body before it is sent, a
// stream's frames once it ends. Requests without the header pay one header lookup.
import { pipeline, Readable, Transform } from 'node:stream';
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../common/api-error';
import { WrongExpectedRevisionError } from '../event-store/event-store.port';
import type { CallerContext } from '../access/access.types';
import { IDEMPOTENCY_HEADER, idempotencyStreamId, validIdempotencyKey } from './idempotency-key';
import { boundaryOf, jsonFingerprint, multipartFingerprint } from './fingerprint';
import { peekWholeBody } from './read-whole-body';
import { decide, type KeyDecision, type KeyState } from './key-state';
import type { KeyCharge } from './charge-once';
import type { KeyLedger } from './key-ledger';
import type { ResponseBodies } from './response-bodies';
import type { IdempotencySettings } from './idempotency-settings';
import { KeyRun, type ClaimInput, type KeyRunDeps } from './key-run';
import { inUse, lengthRequired, notKept, reused } from './idempotency-errors';

/** Billable POSTs and key issuance: the routes a retry could charge or create twice. */
export const IDEMPOTENT_ROUTES: ReadonlySet<string> = new Set([
  '/v1/chat/completions',
  '/v1/audio/speech',
  '/v1/audio/transcriptions',
  '/v1/images/:path',
  '/v1/decisions',
  '/v1/keys',
]);

export interface IdempotencyDeps {
  ledger: KeyLedger;
  bodies: ResponseBodies;
  settings: IdempotencySettings;
  now?: () => Date;
  /** Context `idempotency`. */
  log?: GatewayLog;
}

const runs = new WeakMap<FastifyRequest, KeyRun>();
/** Concurrent claims of one key by this many requests at once still settle within this many reads. */
const MAX_DECISIONS = 8;

export function installIdempotency(fastify: FastifyInstance, deps: IdempotencyDeps): void {
  fastify.addHook('preHandler', (request, reply, done) => {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined || request.method !== 'POST' || !IDEMPOTENT_ROUTES.has(request.routeOptions.url ?? '')) return done();
    admit(deps, request, reply, header).then(
      (run) => (run === 'answered' ? undefined : done()),
      (error: unknown) => answerError(deps.log ?? SILENT_LOG, request, reply, error),
    );
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const run = runs.get(request);
    if (run === undefined) return done(null, payload);
    runs.delete(request);
    if (isStream(payload)) return done(null, recordStream(deps.log ?? SILENT_LOG, run, reply, payload));
    run.finish(reply.statusCode, contentTypeOf(reply), [payload as string | Buffer | null], true).then(
      () => done(null, payload),
      (error: unknown) => done(error as Error),
    );
  });
}

/** A key never used: it starts its first life, with no earlier claimant and no charge to inherit. */
const NEW_KEY: Extract<KeyDecision, { kind: 'claim' }> = { kind: 'claim', expectedRevision: 'no_stream', fresh: true, previousClaimants: [] };

async function admit(deps: IdempotencyDeps, request: FastifyRequest, reply: FastifyReply, header: string | string[]): Promise<'run' | 'answered'> {
  const key = validIdempotencyKey(header);
  const caller = (request as FastifyRequest & { caller?: CallerContext }).caller;
  // Management routes (POST /v1/keys) charge no organization: their keys share the operator's scope.
  const scope = caller?.organizationId ?? 'management';
  const streamId = idempotencyStreamId(scope, key);
  const claim = { streamId, requestId: request.id, organizationId: scope, fingerprint: await fingerprintOf(request) };
  const runDeps: KeyRunDeps = { ...deps, now: deps.now ?? (() => new Date()), log: deps.log ?? SILENT_LOG };
  // Nearly every key is new: claim it without reading its stream. Only a stream that does not exist at
  // all takes this claim; any other (bound, released, expired) refuses it and is read and decided on.
  let run = await claimed(runDeps, { ...claim, decision: NEW_KEY, coveredBy: null, unread: true });
  for (let attempt = 0; run === null && attempt < MAX_DECISIONS; attempt++) {
    const state = await deps.ledger.read(streamId);
    const decision = decide(state, { fingerprint: claim.fingerprint, now: runDeps.now(), retentionMs: deps.settings.retentionMs });
    if (decision.kind !== 'claim') return answerWithout(deps, reply, streamId, decision);
    run = await claimed(runDeps, { ...claim, decision, coveredBy: await inheritedCharge(deps, state, decision) });
  }
  if (run === null) throw inUse(1, null);
  runs.set(request, run);
  const started = run;
  if (reply.raw.closed) started.responseClosed();
  else reply.raw.once('close', () => started.responseClosed());
  return 'run';
}

/** The run, or null when another request's append moved the key's stream first (read and decide again). */
async function claimed(deps: KeyRunDeps, input: ClaimInput): Promise<KeyRun | null> {
  try {
    return await KeyRun.claim(deps, input);
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) return null;
    throw error;
  }
}

/** The charge an earlier claimant of this life already made; none for a new life (past the retention: its own one charge). */
async function inheritedCharge(deps: IdempotencyDeps, state: KeyState, decision: Extract<KeyDecision, { kind: 'claim' }>): Promise<KeyCharge | null> {
  if (decision.fresh) return null;
  if (state.chargedRequestId !== null) return { requestId: state.chargedRequestId, costUsdMicros: state.costUsdMicros };
  return deps.ledger.chargeOf(decision.previousClaimants);
}

/** JSON as parsed; a multipart form from its bytes, read whole and put back for the handler's parser. */
async function fingerprintOf(request: FastifyRequest): Promise<string> {
  const path = request.url.split('?')[0];
  const boundary = boundaryOf(request.headers['content-type']);
  if (boundary === null) return jsonFingerprint(request.method, path, request.body);
  const declared = Number(request.headers['content-length']);
  if (!(declared > 0)) throw lengthRequired();
  return multipartFingerprint(request.method, path, await peekWholeBody(request.raw, declared), boundary);
}

async function answerWithout(deps: IdempotencyDeps, reply: FastifyReply, streamId: string, decision: Exclude<KeyDecision, { kind: 'claim' }>): Promise<'answered'> {
  if (decision.kind === 'in_use') throw inUse(decision.retryAfterSeconds, decision.requestId);
  if (decision.kind === 'reused') throw reused();
  const outcome = decision.outcome;
  const chunks = decision.kind === 'replay' ? await deps.bodies.read(streamId, outcome.requestId) : null;
  if (chunks === null) throw notKept(outcome);
  void reply.code(outcome.status).header('x-request-id', outcome.requestId).header('idempotent-replayed', 'true');
  if (outcome.contentType !== null) void reply.header('content-type', outcome.contentType);
  // A stream is replayed as the same sequence of chunks it was sent in; a plain answer as its bytes.
  await reply.send(chunks.length === 1 ? chunks[0] : Readable.from(chunks));
  return 'answered';
}

/** Passes the stream's chunks on unchanged, keeping them; records the answer once the stream ends. */
function recordStream(logger: GatewayLog, run: KeyRun, reply: FastifyReply, payload: Readable): Transform {
  const contentType = contentTypeOf(reply);
  const chunks: Buffer[] = [];
  let ended = false;
  const tee = new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      callback(null, chunk);
    },
    flush(callback) {
      ended = true;
      callback();
    },
  });
  // A stream cut short (the client left, the gateway failed) is not replayable: it is recorded not kept.
  tee.once('close', () => void run.finish(reply.statusCode, contentType, chunks, ended).catch((error: unknown) => logger.error({ err: error, requestId: run.requestId }, 'recording a streamed answer failed')));
  // pipeline, not pipe: when Fastify destroys the tee (the client left), the stream it reads is destroyed
  // too, so the relay ends and bills what it sent instead of waiting on a reader that is gone.
  return pipeline(payload, tee, () => undefined);
}

function answerError(logger: GatewayLog, request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  if (!(error instanceof ApiError)) logger.error({ err: error, requestId: request.id }, 'idempotency key could not be decided');
  const answer = error instanceof ApiError ? error : ApiError.unavailable('idempotency_unavailable', 'The Idempotency-Key could not be checked; the request was not run. Retry shortly.', 1);
  void reply.code(answer.status).headers(answer.headers).send(answer.toBody());
}

function isStream(payload: unknown): payload is Readable {
  return payload !== null && typeof payload === 'object' && typeof (payload as Readable).pipe === 'function';
}

function contentTypeOf(reply: FastifyReply): string | null {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' ? type : null;
}
