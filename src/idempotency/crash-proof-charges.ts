// Wiring: streams cut by a crash charged first (before any request), the key ledger on the gateway's
// event store, the body files in its data directory, the hooks, the sweeper that deletes bodies past
// the retention (stopped with the server), and the journal of running streams' progress.
import { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { GatewayRuntime } from '../core/gateway-runtime';
import { recoverCutStreams } from './recover-cut-streams';
import { StreamProgressJournal } from './stream-progress';
import { installIdempotency } from './idempotency.hook';
import { idempotencySettingsFrom } from './idempotency-settings';
import { KeyLedger } from './key-ledger';
import { ResponseBodies } from './response-bodies';

export async function crashProofCharges(fastify: FastifyInstance, runtime: GatewayRuntime, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { eventStore, billing } = runtime;
  const dataDir = runtime.env.dataDir;
  const settings = idempotencySettingsFrom(env);
  await recoverCutStreams(eventStore, dataDir);
  billing.keepStreamProgress(new StreamProgressJournal(dataDir));
  const bodies = new ResponseBodies(dataDir);
  installIdempotency(fastify, { ledger: new KeyLedger(eventStore), bodies, settings });
  const logger = new Logger('idempotency');
  const sweeper = setInterval(() => {
    bodies.sweep(settings.retentionMs).catch((error: unknown) => logger.warn({ err: error }, 'sweeping kept idempotent answers failed'));
  }, settings.sweepIntervalMs).unref();
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(sweeper);
    done();
  });
}
