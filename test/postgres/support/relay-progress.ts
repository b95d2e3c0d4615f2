// Whether the Kafka relay's shared checkpoint (gateway_relay_checkpoint, saved only after the broker
// acknowledged a batch) has moved past every one of the given events: then everything the relay will
// ever publish of them is on the broker.
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';
import type { RelayCheckpoint } from '../../../src/kafka/relay/relay-checkpoint';
import { withClient } from '../../support/postgres-database';

export async function relayCheckpointPast(url: string, eventIds: Set<string>): Promise<boolean> {
  const { rows } = await withClient(url, (client) => client.query<{ checkpoint: RelayCheckpoint }>('SELECT checkpoint FROM gateway_relay_checkpoint'));
  const position = rows[0]?.checkpoint.position;
  if (!position) return eventIds.size === 0;
  const store = await PostgresEventStore.connect(url);
  try {
    for (let after: string = position; ; ) {
      const page = await store.readAll({ after, maxCount: 5_000 });
      if (page.length === 0) return true;
      if (page.some((event) => eventIds.has(event.id))) return false;
      after = page[page.length - 1].position;
    }
  } finally {
    await store.close();
  }
}
