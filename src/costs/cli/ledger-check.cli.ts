// `npm run ledger:check`: replays the whole event store and compares it with the daily cost read model
// (its lag replayed, so a stopped gateway's read model behind the head is not a difference) and its
// parked events; exits 1 on a real difference, a missing read model or one bound to another store
// (docs/costs.md). Reads GATEWAY_DATA_DIR and
// EVENTSTORE_CONNECTION_STRING like the gateway. `npm run ledger:check -- --acknowledge-parked=<event id|all>`
// marks parked events as seen by an operator (readiness and this check then stop counting them).
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readRuntimeEnv } from '../../config/gateway-config';
import { createEventStore } from '../../event-store/create-event-store';
import { createGatewayLogger } from '../../observability/logging/gateway-logger';
import { CostReadModel } from '../read-model/cost-read-model';
import { checkLedger, isLedgerClean } from '../read-model/ledger-check';
import { formatLedgerReport } from '../read-model/ledger-report';
import { READ_MODELS_FILE_NAME } from '../../projections/read-model-db';
import { recordedStoreId } from '../../projections/read-model-store-binding';
import { listParkedEvents, ParkedEvents } from '../../projections/parking/parked-events';
import { FileRelayCheckpointStore, relayCheckpointPath } from '../../kafka/relay/relay-checkpoint';
import { isRelayLeaseSource } from '../../kafka/relay/relay-lease';
import { attemptLedgerLines, replayAttempts } from '../../routing/attempt-ledger';

/** How long the check waits for a running gateway's read model to reach the store's head: not at all by default, its lag is replayed. */
export const DEFAULT_GRACE_MS = 0;
const ACKNOWLEDGE_FLAG = '--acknowledge-parked=';

/** A missing read model file is checked as an empty read model, and reported MISSING. */
function openReadModel(dataDir: string, writable: boolean): { db: Database.Database; present: boolean } {
  const path = join(dataDir, READ_MODELS_FILE_NAME);
  const present = existsSync(path);
  return { db: present ? new Database(path, { readonly: !writable }) : new Database(':memory:'), present };
}

export async function runLedgerCheck(env: NodeJS.ProcessEnv = process.env, print: (line: string) => void = console.log, args: string[] = process.argv.slice(2)): Promise<number> {
  const acknowledge = args.find((arg) => arg.startsWith(ACKNOWLEDGE_FLAG))?.slice(ACKNOWLEDGE_FLAG.length);
  if (acknowledge === '') throw new Error(`${ACKNOWLEDGE_FLAG} needs an event id or "all"`);
  const { dataDir, eventStoreConnectionString, postgres, logLevel } = readRuntimeEnv(env);
  const { db, present } = openReadModel(dataDir, acknowledge !== undefined);
  if (acknowledge !== undefined) {
    print(`acknowledged ${present ? new ParkedEvents(db).acknowledge(acknowledge) : 0} parked event(s)`);
  }
  const log = createGatewayLogger(logLevel).child({ context: 'event-store' });
  const store = await createEventStore({ dataDir, connectionString: eventStoreConnectionString, postgres, log });
  try {
    const result = await checkLedger(store, new CostReadModel(db), {
      readModelPresent: present,
      parkedEvents: listParkedEvents(db),
      catchUpGraceMs: graceMs(env),
      readModelStoreId: present ? recordedStoreId(db) : undefined,
    });
    // On PostgreSQL the relay's checkpoint (and what it parked) is shared in the database (relay-lease.ts).
    const relayCheckpoints = isRelayLeaseSource(store) ? store.createRelayLease() : new FileRelayCheckpointStore(relayCheckpointPath(env));
    const relayParked = (await relayCheckpoints.load())?.parked ?? [];
    print(formatLedgerReport(result, { relayParked }));
    // Routing's events (docs/routing.md): one served attempt per charge, the cost of goods on it alone.
    const attempts = await replayAttempts(store);
    print(attemptLedgerLines(attempts).join('\n'));
    return isLedgerClean(result) && attempts.problems.length === 0 ? 0 : 1;
  } finally {
    db.close();
    await store.close();
  }
}

function graceMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.LEDGER_CHECK_GRACE_MS ?? DEFAULT_GRACE_MS);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`LEDGER_CHECK_GRACE_MS must be a whole number of milliseconds >= 0, got ${env.LEDGER_CHECK_GRACE_MS}`);
  return value;
}

if (require.main === module) {
  runLedgerCheck().then(
    (exitCode) => (process.exitCode = exitCode),
    (error: unknown) => {
      console.error('ledger check failed:', error);
      process.exitCode = 2;
    },
  );
}
