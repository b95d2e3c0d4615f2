// The relay process is SIGKILLed after the broker acknowledged a batch and before the checkpoint was
// saved. The restarted relay publishes that batch again: duplicates appear, deduplication by event id
// removes them, and nothing is missing.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { Kafka } from 'kafkajs';
import { topicFor } from '../../src/kafka/billing-topics';
import { reconcile, reportHasDifferences } from '../../src/kafka/reconcile/reconcile';
import { FileRelayCheckpointStore } from '../../src/kafka/relay/relay-checkpoint';
import { billedRequests } from './support/billing-event-fixtures';
import { brokers, describeWithBroker, testKafka, uniqueTopicPrefix } from './support/broker-env';
import { header, readAllMessages, StoreFixture, waitUntilCaughtUp } from './support/relay-harness';
import type { PausedMessage } from './support/relay-child';

jest.setTimeout(180_000);

const BATCH_SIZE = 30;
const PAUSE_AFTER_BATCH = 4;

/** Runs the relay child until it reports the paused batch, then kills it with SIGKILL. */
function runChildUntilPausedAndKill(fixture: StoreFixture, topicPrefix: string): Promise<PausedMessage> {
  const child = fork(join(__dirname, 'support', 'relay-child.ts'), [], {
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    env: {
      ...process.env,
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC_PREFIX: topicPrefix,
      RELAY_DATA_DIR: fixture.dataDir,
      RELAY_CHECKPOINT_FILE: fixture.checkpointFile,
      RELAY_BATCH_SIZE: String(BATCH_SIZE),
      RELAY_PAUSE_AFTER_BATCH: String(PAUSE_AFTER_BATCH),
    },
  });
  return new Promise((resolve, reject) => {
    child.on('message', (message: PausedMessage) => {
      child.kill('SIGKILL');
      child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(message) : reject(new Error(`child ended by ${signal}`))));
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`relay child exited early (code ${code}, signal ${signal})`));
    });
  });
}

describeWithBroker('relay killed between produce and checkpoint', () => {
  let kafka: Kafka;
  let fixture: StoreFixture;

  beforeAll(async () => {
    kafka = testKafka();
    fixture = new StoreFixture();
    await fixture.open();
  });

  afterAll(() => fixture?.destroy());

  it('republishes the unacknowledged batch after a restart; dedup removes the copies and loses nothing', async () => {
    const topicPrefix = uniqueTopicPrefix();
    await fixture.appendRequests(billedRequests(100, 'crash'));
    const paused = await runChildUntilPausedAndKill(fixture, topicPrefix);
    const checkpointAtCrash = await new FileRelayCheckpointStore(fixture.checkpointFile).load();
    const stored = await fixture.store.readAll({ after: null, maxCount: 10_000 });
    expect(checkpointAtCrash?.position).toBe(stored[(PAUSE_AFTER_BATCH - 1) * BATCH_SIZE - 1].position);

    const relay = fixture.relay(brokers, { topicPrefix });
    await relay.start();
    await waitUntilCaughtUp(relay, 60_000);
    await relay.stop();

    const pausedIds = new Set(paused.eventIds);
    const repeatedBilling = stored.filter((event) => pausedIds.has(event.id) && event.type !== 'RequestAdmitted').length;
    const usage = await readAllMessages(kafka, topicFor('UsageMeasured', 1, topicPrefix));
    const usageIds = new Set(usage.map((message) => header(message, 'event-id')));
    const report = await reconcile({ kafka, store: fixture.store, window: { fromDay: null, untilDay: null }, topicPrefix });
    const { producedInStore, consumed, duplicatesRemoved } = report.counts;
    console.log(
      `crash between produce and checkpoint (batch ${paused.batch}, ${paused.eventIds.length} store events): ` +
        `CostPriced produced ${producedInStore}, consumed ${consumed}, deduplicated ${duplicatesRemoved}; ` +
        `UsageMeasured consumed ${usage.length}, deduplicated ${usage.length - usageIds.size}`,
    );

    expect(duplicatesRemoved).toBeGreaterThan(0);
    expect(duplicatesRemoved + (usage.length - usageIds.size)).toBeGreaterThanOrEqual(repeatedBilling);
    expect(usageIds.size).toBe(stored.filter((event) => event.type === 'UsageMeasured').length);
    expect(report.missingFromKafka).toEqual([]);
    expect(report.unknownToStore).toEqual([]);
    expect(reportHasDifferences(report)).toBe(false);
  });
});
