// While the gateway closes, a request that arrives on a kept-alive connection gets the spec's 503
// envelope with `Connection: close`, instead of Fastify's own 503 body, so clients (the OpenAI SDKs
// retry 503) reconnect, to another replica behind a load balancer.
import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error';

const SHUTTING_DOWN = ApiError.unavailable('shutting_down', 'The gateway is shutting down; retry the request.', 1);

export function refuseWhileClosing(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  // A callback hook, not an async one: it runs on every request and needs no promise.
  fastify.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.code(SHUTTING_DOWN.status).headers({ ...SHUTTING_DOWN.headers, connection: 'close' }).send(SHUTTING_DOWN.toBody());
  });
}
