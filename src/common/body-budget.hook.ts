// Enforces the request-body budget (body-budget.ts) before a body is read: a declared Content-Length
// that does not fit is refused with 503 + Retry-After at once; a chunked body is counted as it
// arrives and refused when it crosses the budget (its remaining bytes are then discarded unread).
// The bytes are given back when the response closes, however the request ended (answer, error,
// 413, client abort), since that is when nothing of the body is held any more. A refused body is
// still read to its end (keeping the connection usable) and each chunk freed as it arrives.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from './api-error';
import type { BodyBudget } from './body-budget';
import { releaseNow } from './release-buffer';

const SERVER_BUSY = ApiError.unavailable('server_busy', 'The gateway is holding as many request bodies as its memory allows; retry the request shortly.', 1);

export function limitBodiesInFlight(fastify: FastifyInstance, budget: BodyBudget, bodyLimitBytes: number): void {
  // A callback hook, not an async one: it runs on every request and needs no promise.
  fastify.addHook('onRequest', (request, reply, done) => {
    const headers = request.raw.headers;
    const declared = headers['content-length'];
    if (declared !== undefined) {
      const bytes = Number(declared);
      // Empty, malformed (Fastify answers 400) or over the size limit (413 without reading it): nothing to hold.
      if (!(bytes > 0) || bytes > bodyLimitBytes) return done();
      if (!budget.tryTake(bytes)) {
        discardUnread(request.raw);
        return void refuse(reply);
      }
      reply.raw.once('close', () => budget.give(bytes));
    } else if (headers['transfer-encoding'] !== undefined) {
      countAsItArrives(request.raw, reply, budget);
    }
    done();
  });
}

function refuse(reply: FastifyReply): void {
  if (!reply.sent) reply.code(SERVER_BUSY.status).headers(SERVER_BUSY.headers).send(SERVER_BUSY.toBody());
}

/**
 * Counts at the source (the HTTP parser pushes every body chunk into the request stream), so JSON
 * bodies and multipart uploads, which @fastify/multipart reads from the raw request, are both covered.
 */
function countAsItArrives(raw: IncomingMessage, reply: FastifyReply, budget: BodyBudget): void {
  let held = 0;
  let refused = false;
  const push = raw.push;
  raw.push = function countedPush(chunk: Buffer | null, encoding?: BufferEncoding): boolean {
    if (chunk === null || chunk.length === 0) return push.call(raw, chunk, encoding);
    if (!refused && budget.tryTake(chunk.length, held)) {
      held += chunk.length;
      return push.call(raw, chunk, encoding);
    }
    if (!refused) {
      refused = true;
      refuse(reply);
    }
    releaseNow(chunk); // never pushed, so no one else holds it
    return true; // discarded: the client may finish sending and still read its 503
  };
  reply.raw.once('close', () => budget.give(held));
}

/**
 * Reads and drops a refused body, as Node does with a body nobody read once the answer is sent, but
 * frees each chunk as it arrives: 31 refused 95 MiB uploads dropped Node's way left about 100 MiB of
 * dead chunks resident (docs/benchmarks.md, finding 44). A reader set before the answer also stands
 * in for Node's own (which it adds only when the body has none).
 */
function discardUnread(raw: IncomingMessage): void {
  raw.on('data', releaseNow);
  raw.resume();
}
