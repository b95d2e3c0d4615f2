// The multi-host test's check of what the Kafka relay published (relayed-once.ts): it waits for the relay's
// checkpoint to pass every stored billing event, then reads their topics whole and reports each, adding the
// figures to the run's printed list.
import { topicFor } from '../../../src/kafka/billing-topics';
import { readWholeTopic } from './billing-topic';
import { relayCheckpointPast } from './relay-progress';
import { checkRelayedOnce, type RelayedOnceReport } from './relayed-once';
import type { StoredBilling } from './stored-billing';
import { waitFor } from './wait-for';

const RELAYED_TYPES = ['CostPriced', 'UsageMeasured'] as const;

export async function checkRelayOutput(postgresUrl: string, brokers: string, stored: StoredBilling, figures: string[]): Promise<{ type: string; report: RelayedOnceReport }[]> {
  const ids = new Set(RELAYED_TYPES.flatMap((type) => stored.relayed(type).map((event) => event.id)));
  const since = performance.now();
  await waitFor('the relay\'s checkpoint past every stored billing event', () => relayCheckpointPast(postgresUrl, ids), 120_000);
  const caughtUp = Math.round(performance.now() - since);
  const results = [];
  for (const type of RELAYED_TYPES) {
    const report = checkRelayedOnce(stored.relayed(type), await readWholeTopic(brokers, topicFor(type)));
    results.push({ type, report });
    figures.push(
      `Kafka ${topicFor(type)}: ${stored.relayed(type).length} stored, ${report.messages} messages (${report.duplicates} repeated event ids), ` +
        `${report.missing.length} missing, ${report.unexpected.length} unexpected, ${report.outOfOrder.length} organizations out of order`,
    );
  }
  figures.push(`relay checkpoint past every billing event ${caughtUp} ms after the stored billing was read`);
  return results;
}
