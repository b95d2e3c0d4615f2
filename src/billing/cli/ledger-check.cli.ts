// `npm run ledger:check`: compares the daily cost read model with a replay of the event store and exits
// 1 on any difference. Reads GATEWAY_DATA_DIR and EVENTSTORE_CONNECTION_STRING like the gateway.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readRuntimeEnv } from '../../config/gateway-config';
import { createEventStore } from '../../event-store/create-event-store';
import { CostReadModel } from '../../projections/cost/cost-read-model';
import { checkLedger, formatLedgerReport } from '../../projections/cost/ledger-check';
import { READ_MODELS_FILE_NAME } from '../../projections/read-model-db';

/** A missing read model file is checked as an empty read model (every billed day is then a difference). */
function openReadModel(dataDir: string): { readModel: CostReadModel; db: Database.Database } {
  const path = join(dataDir, READ_MODELS_FILE_NAME);
  const db = existsSync(path) ? new Database(path, { readonly: true }) : new Database(':memory:');
  return { readModel: new CostReadModel(db), db };
}

export async function runLedgerCheck(env: NodeJS.ProcessEnv = process.env, print: (line: string) => void = console.log): Promise<number> {
  const { dataDir, eventStoreConnectionString } = readRuntimeEnv(env);
  const store = await createEventStore({ dataDir, connectionString: eventStoreConnectionString });
  const { readModel, db } = openReadModel(dataDir);
  try {
    const result = await checkLedger(store, readModel);
    print(formatLedgerReport(result));
    return result.differences.length === 0 ? 0 : 1;
  } finally {
    db.close();
    await store.close();
  }
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
