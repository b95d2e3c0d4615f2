// Whether start-up has caught the projections up with the store. main.ts listens before that (so
// /healthz answers during a long catch-up); until then the /v1 routes are refused with 503 and
// Retry-After, fail-closed: keys, rate limits and budgets would be decided on a partial fold.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../common/api-error';

const CATCHING_UP = ApiError.unavailable('starting_up', 'The gateway is catching up with its event store and not ready yet; retry shortly.', 1);

export class StartupGate {
  private done = false;
  private failure: unknown = null;

  constructor(readonly caughtUp: Promise<void>) {
    caughtUp.then(
      () => (this.done = true),
      (error: unknown) => (this.failure = error ?? new Error('start-up failed')),
    );
  }

  isCaughtUp(): boolean {
    return this.done;
  }

  /** Why catching up failed, if it did (main.ts exits on it). */
  failed(): unknown {
    return this.failure;
  }
}

/** A callback hook, not an async one: it runs on every request; after start-up it is one boolean check. */
export function refuseUntilCaughtUp(fastify: FastifyInstance, gate: StartupGate | undefined): void {
  if (!gate) return;
  fastify.addHook('onRequest', (request, reply, done) => {
    if (gate.isCaughtUp() || !request.url.startsWith('/v1/')) return done();
    reply.code(CATCHING_UP.status).headers(CATCHING_UP.headers).send(CATCHING_UP.toBody());
  });
}
