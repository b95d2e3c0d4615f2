// Shared pieces of the Kafka integration tests: a SQLite store in a temp dir, a relay on it, polling.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kafka, KafkaMessage } from 'kafkajs';
import { SqliteEventStore } from '../../../src/event-store/sqlite/sqlite-event-store';
import { KafkaBatchPublisher, RELAY_CLIENT_RETRY } from '../../../src/kafka/relay/kafka-publisher';
import { KafkaRelay, type KafkaRelayOptions } from '../../../src/kafka/relay/kafka-relay';
import { FileRelayCheckpointStore } from '../../../src/kafka/relay/relay-checkpoint';
import { readTopic } from '../../../src/kafka/reconcile/topic-reader';
import { billedRequestAppend, type BilledRequest } from './billing-event-fixtures';
import { testKafka } from './broker-env';

export const silentLogger = { info: () => undefined, warn: () => undefined };

export class StoreFixture {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'kafka-relay-store-'));
  readonly checkpointFile = join(this.dataDir, 'kafka-relay-checkpoint.json');
  store!: SqliteEventStore;

  async open(): Promise<SqliteEventStore> {
    this.store = await SqliteEventStore.open(this.dataDir);
    return this.store;
  }

  async appendRequests(requests: BilledRequest[]): Promise<void> {
    for (const request of requests) {
      const { streamId, events } = billedRequestAppend(request);
      await this.store.append(streamId, events);
    }
  }

  relay(brokerList: string, options: Partial<KafkaRelayOptions> & { topicPrefix: string }): KafkaRelay {
    return new KafkaRelay({
      store: this.store,
      publisher: new KafkaBatchPublisher(testKafka(brokerList, { retry: RELAY_CLIENT_RETRY })),
      checkpoints: new FileRelayCheckpointStore(this.checkpointFile),
      logger: silentLogger,
      ...options,
    });
  }

  async destroy(): Promise<void> {
    await this.store?.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export async function eventually(condition: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function waitUntilCaughtUp(relay: KafkaRelay, timeoutMs: number): Promise<void> {
  await eventually(async () => (await relay.lag()).eventsBehind === 0, timeoutMs, 'the relay to catch up');
}

export function readAllMessages(kafka: Kafka, topic: string): Promise<KafkaMessage[]> {
  return readTopic(kafka, { topic, since: null }, (message) => message);
}

export function header(message: KafkaMessage, name: string): string | undefined {
  return message.headers?.[name]?.toString();
}
