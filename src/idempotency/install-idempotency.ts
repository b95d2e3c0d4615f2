// Wiring: the key ledger on the gateway's event store, the body files in its data directory, the
// hooks, and the sweeper that deletes bodies past the retention (stopped with the server).
import { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { EventStore } from '../event-store/event-store.port';
import { installIdempotency } from './idempotency.hook';
import { idempotencySettingsFrom } from './idempotency-settings';
import { KeyLedger } from './key-ledger';
import { ResponseBodies } from './response-bodies';

export function idempotencyOn(fastify: FastifyInstance, store: EventStore, dataDir: string, env: NodeJS.ProcessEnv = process.env): void {
  const settings = idempotencySettingsFrom(env);
  const bodies = new ResponseBodies(dataDir);
  installIdempotency(fastify, { ledger: new KeyLedger(store), bodies, settings });
  const logger = new Logger('idempotency');
  const sweeper = setInterval(() => {
    bodies.sweep(settings.retentionMs).catch((error: unknown) => logger.warn({ err: error }, 'sweeping kept idempotent answers failed'));
  }, settings.sweepIntervalMs).unref();
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(sweeper);
    done();
  });
}
