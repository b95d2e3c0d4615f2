// Wiring: streams cut by a crash charged first (before any request), the key ledger on the gateway's
// event store, the kept bodies' database in its data directory, the hooks, the sweeper that deletes bodies past
// the retention (stopped with the server), and the journal of running streams' progress.
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
  const logger = runtime.log.child({ context: 'idempotency' });
  const progressLog = runtime.log.child({ context: 'stream-progress' });
  await recoverCutStreams(eventStore, dataDir, progressLog);
  const progress = new StreamProgressJournal(dataDir, undefined, progressLog);
  billing.keepStreamProgress(progress);
  const bodies = new ResponseBodies(dataDir);
  installIdempotency(fastify, { ledger: new KeyLedger(eventStore), bodies, settings, log: logger });
  const sweeper = setInterval(() => {
    bodies.sweep(settings.retentionMs).catch((error: unknown) => logger.warn({ err: error }, 'sweeping kept idempotent answers failed'));
  }, settings.sweepIntervalMs).unref();
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(sweeper);
    bodies.close();
    progress.close();
    done();
  });
}
