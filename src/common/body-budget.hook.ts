// Reads request bodies on the gateway's terms, before anything parses them:
// - a declared Content-Length over the 100 MiB limit is 413 at once, before any budget check;
// - every body is counted as its bytes ARRIVE (never by what it declares): past the limit it is 413,
//   past the body budget (body-budget.ts) 503 `server_busy`; the bytes are given back when the
//   response closes, however the request ended;
// - a body that goes silent (`bodyIdleMs`) or takes too long (`bodyMs`) is answered 408 and its
//   connection closed (body-limits.ts).
// A declared length used to be taken from the budget before the caller was even authenticated: one
// idle socket declaring 100 MiB then refused every other tenant's body for as long as it stayed open.
// Once answered (a refusal, or an error before the body was read), the rest of a body is discarded
// as it arrives, each chunk freed at once, and the connection cut past a bound.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error';
import type { BodyBudget } from './body-budget';
import type { BodyDeadlines } from './body-limits';
import { drainRefusedUpload, REFUSED_UPLOAD_DRAIN } from './drain-refused-upload';
import { releaseNow } from './release-buffer';

const SERVER_BUSY = ApiError.unavailable('server_busy', 'The gateway is holding as many request bodies as its memory allows; retry the request shortly.', 1);
const TOO_LARGE = ApiError.tooLarge('request_too_large', 'The request body exceeds the 100 MiB limit.');
const TIMED_OUT = new ApiError(408, 'request_timeout', 'The request body arrived too slowly; the connection is closed.', 'invalid_request_error');

export interface BodyRules {
  budget: BodyBudget;
  limitBytes: number;
  deadlines: BodyDeadlines;
}

export function limitBodiesInFlight(fastify: FastifyInstance, rules: BodyRules): void {
  // A callback hook, not an async one: it runs on every request and needs no promise.
  fastify.addHook('onRequest', (request, reply, done) => {
    const headers = request.raw.headers;
    const declared = headers['content-length'] === undefined ? null : Number(headers['content-length']);
    if (declared !== null && declared > rules.limitBytes) return refuseUnread(request, reply, TOO_LARGE);
    // Empty or malformed (Fastify answers 400): nothing to watch.
    if (declared === null ? headers['transfer-encoding'] === undefined : !(declared > 0)) return done();
    watchBody(request.raw, reply, rules);
    done();
  });
}

/** Answers before a byte of the body is read: the client may read the answer, the body is drained within bounds. */
export function refuseUnread(request: FastifyRequest, reply: FastifyReply, error: ApiError): void {
  if (reply.sent) return;
  if (hasUnreadBody(request.raw)) {
    drainRefusedUpload(request.raw);
    void reply.header('connection', 'close');
  }
  void reply.code(error.status).headers(error.headers).send(error.toBody());
}

function hasUnreadBody(raw: IncomingMessage): boolean {
  if (raw.complete) return false;
  const declared = raw.headers['content-length'];
  return declared === undefined ? raw.headers['transfer-encoding'] !== undefined : Number(declared) > 0;
}

/**
 * Counts at the source (the HTTP parser pushes every body chunk into the request stream), so JSON
 * bodies and multipart uploads, which @fastify/multipart reads from the raw request, are both covered.
 */
function watchBody(raw: IncomingMessage, reply: FastifyReply, { budget, limitBytes, deadlines }: BodyRules): void {
  let held = 0;
  let received = 0;
  let discarded = 0;
  let answered = false;
  const socket = raw.socket;
  const timeOut = () => {
    if (reply.sent || reply.raw.headersSent) return void socket.destroy();
    answered = true;
    reply.raw.once('finish', () => socket.destroy());
    void reply.code(TIMED_OUT.status).header('connection', 'close').send(TIMED_OUT.toBody());
  };
  const whole = setTimeout(timeOut, deadlines.bodyMs).unref();
  const idle = setTimeout(timeOut, deadlines.bodyIdleMs).unref();
  const stopTimers = () => {
    clearTimeout(whole);
    clearTimeout(idle);
  };
  const refuse = (error: ApiError) => {
    answered = true;
    if (reply.sent) return;
    if (error.status === 413) {
      drainRefusedUpload(raw);
      void reply.header('connection', 'close');
    }
    void reply.code(error.status).headers(error.headers).send(error.toBody());
    // Whoever reads the body (the JSON parser, the multipart parser) gives up now and frees what it
    // holds, rather than when the client goes away: 31 refused 95 MiB bodies otherwise left their
    // partly filled buffers to the collector (memory-bounds peaked at 700 MiB).
    if (raw.listenerCount('error') > 0) raw.emit('error', Object.assign(new Error(error.message), { statusCode: error.status }));
  };
  /** Takes a chunk's bytes: true if it may be read, false if the body is (now) refused. */
  const admitted = (length: number): boolean => {
    if (answered) return false;
    received += length;
    if (received > limitBytes) refuse(TOO_LARGE);
    else if (!budget.tryTake(length, held)) refuse(SERVER_BUSY);
    else held += length;
    return !answered;
  };
  // The body bytes that came in the same read as the headers are already in the stream.
  if (raw.readableLength > 0) admitted(raw.readableLength);
  const push = raw.push;
  raw.push = function countedPush(chunk: Buffer | null, encoding?: BufferEncoding): boolean {
    if (chunk === null) stopTimers();
    if (chunk === null || chunk.length === 0) return push.call(raw, chunk, encoding);
    idle.refresh();
    if (admitted(chunk.length)) return push.call(raw, chunk, encoding);
    // Discarded: the client may finish sending and still read its answer, within a bound.
    discarded += chunk.length;
    releaseNow(chunk); // never pushed, so no one else holds it
    if (discarded > REFUSED_UPLOAD_DRAIN.maxBytes) socket.destroy();
    return true;
  };
  reply.raw.once('finish', () => {
    if (raw.complete) return;
    // Answered before the body was read to its end (an error mid-upload): whoever was reading it
    // stops, and the rest is discarded by countedPush as it arrives.
    answered = true;
    raw.unpipe();
    raw.removeAllListeners('data');
    raw.resume();
  });
  reply.raw.once('close', () => {
    answered = true;
    budget.give(held);
    held = 0;
  });
  raw.once('close', stopTimers); // the request's own event: a kept-alive socket's listeners would pile up
}
