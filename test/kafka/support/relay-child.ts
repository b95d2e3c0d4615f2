// A relay in its own process, for the crash test. After the batch number RELAY_PAUSE_AFTER_BATCH is
// acknowledged by the broker it reports the batch to the parent and hangs before saving the
// checkpoint, so the parent can SIGKILL it exactly between produce and checkpoint.
import { SqliteEventStore } from '../../../src/event-store/sqlite/sqlite-event-store';
import type { RecordedEvent } from '../../../src/event-store/event-store.port';
import { KafkaBatchPublisher, RELAY_CLIENT_RETRY } from '../../../src/kafka/relay/kafka-publisher';
import { KafkaRelay } from '../../../src/kafka/relay/kafka-relay';
import { FileRelayCheckpointStore } from '../../../src/kafka/relay/relay-checkpoint';
import { testKafka } from './broker-env';
import { silentLogger } from './relay-harness';

export interface PausedMessage {
  kind: 'published-not-checkpointed';
  batch: number;
  eventIds: string[];
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const pauseAfterBatch = Number(required('RELAY_PAUSE_AFTER_BATCH'));
  const store = await SqliteEventStore.open(required('RELAY_DATA_DIR'));
  let batches = 0;
  const afterPublish = async (events: RecordedEvent[]): Promise<void> => {
    batches += 1;
    if (batches !== pauseAfterBatch) return;
    const message: PausedMessage = { kind: 'published-not-checkpointed', batch: batches, eventIds: events.map((event) => event.id) };
    process.send?.(message);
    await new Promise(() => undefined);
  };
  const relay = new KafkaRelay({
    store,
    publisher: new KafkaBatchPublisher(testKafka(required('KAFKA_BROKERS'), { retry: RELAY_CLIENT_RETRY })),
    checkpoints: new FileRelayCheckpointStore(required('RELAY_CHECKPOINT_FILE')),
    topicPrefix: required('KAFKA_TOPIC_PREFIX'),
    batchSize: Number(required('RELAY_BATCH_SIZE')),
    logger: silentLogger,
    afterPublish,
  });
  await relay.start();
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
