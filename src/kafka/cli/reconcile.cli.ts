// npm run reconcile -- --from <date|earliest>: Kafka's CostPriced totals against the event store (and the
// gateway's cost API), and its upstream attempts (count, cost of goods, ids) against the store's. Prints
// every organization-day; exits 1 on any difference, 2 on bad usage or errors.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readRuntimeEnv } from '../../config/gateway-config';
import { createEventStore } from '../../event-store/create-event-store';
import { createGatewayLogger } from '../../observability/logging/gateway-logger';
import { openReadModelDb, READ_MODELS_FILE_NAME } from '../../projections/read-model-db';
import { CostReadModel } from '../../costs/read-model/cost-read-model';
import { createKafka, readKafkaConfig } from '../kafka.config';
import { reconcile, reportHasDifferences } from '../reconcile/reconcile';
import { formatReport } from '../reconcile/report-format';
import { parseReconcileArgs, USAGE, UsageError } from './reconcile-args';

async function main(): Promise<number> {
  const args = parseReconcileArgs(process.argv.slice(2));
  const kafkaConfig = readKafkaConfig(process.env);
  if (!kafkaConfig) throw new UsageError('KAFKA_BROKERS is not set');
  const env = readRuntimeEnv(process.env);
  const log = createGatewayLogger(env.logLevel).child({ context: 'event-store' });
  const store = await createEventStore({ dataDir: env.dataDir, connectionString: env.eventStoreConnectionString, postgres: env.postgres, log });
  const readModelDb = existsSync(join(env.dataDir, READ_MODELS_FILE_NAME)) ? openReadModelDb(env.dataDir) : null;
  try {
    const report = await reconcile({
      kafka: createKafka(kafkaConfig),
      store,
      window: args.window,
      topicPrefix: kafkaConfig.topicPrefix,
      readModel: readModelDb ? new CostReadModel(readModelDb) : undefined,
      gateway: args.gateway ?? undefined,
    });
    console.log(formatReport(report));
    return reportHasDifferences(report) ? 1 : 0;
  } finally {
    readModelDb?.close();
    await store.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error instanceof UsageError ? `${error.message}\n${USAGE}` : `reconcile failed: ${error.message}`);
    process.exit(2);
  },
);
