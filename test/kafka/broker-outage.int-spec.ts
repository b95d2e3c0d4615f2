// The broker goes down in the middle of a load and comes back: appends never wait for it, the relay
// reports lag while it is gone, and after catch-up Kafka's totals equal the store's exactly.
import type { Kafka } from 'kafkajs';
import { reconcile, reportHasDifferences } from '../../src/kafka/reconcile/reconcile';
import { compareDailyTotals, sumDailyCosts } from '../../src/kafka/reconcile/cost-totals';
import { readStoreRecords } from '../../src/kafka/reconcile/store-costs';
import type { KafkaRelay } from '../../src/kafka/relay/kafka-relay';
import { billedRequests, type BilledRequest } from './support/billing-event-fixtures';
import { describeWithBroker, testKafka, uniqueTopicPrefix } from './support/broker-env';
import { DedicatedBroker } from './support/dedicated-broker';
import { eventually, StoreFixture, waitUntilCaughtUp } from './support/relay-harness';

jest.setTimeout(240_000);

/** Appends requests one by one at a steady pace and remembers the slowest append. */
async function appendSteadily(fixture: StoreFixture, requests: BilledRequest[], pauseMs: number): Promise<number> {
  let slowestMs = 0;
  for (const request of requests) {
    const started = Date.now();
    await fixture.appendRequests([request]);
    slowestMs = Math.max(slowestMs, Date.now() - started);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return slowestMs;
}

describeWithBroker('relay across a broker outage', () => {
  const broker = new DedicatedBroker();
  let kafka: Kafka;
  let fixture: StoreFixture;
  let relay: KafkaRelay;

  beforeAll(async () => {
    kafka = testKafka(await broker.start());
    fixture = new StoreFixture();
    await fixture.open();
  });

  afterAll(async () => {
    await relay?.stop();
    await fixture?.destroy();
    await broker.destroy();
  });

  it('keeps appending while the broker is down and catches up exactly when it returns', async () => {
    const topicPrefix = uniqueTopicPrefix();
    relay = fixture.relay(broker.brokers, { topicPrefix, batchSize: 25, idlePollMs: 100, backoff: { initialMs: 100, maxMs: 1_000 } });
    await relay.start();

    const beforeOutage = appendSteadily(fixture, billedRequests(150, 'before'), 10);
    await eventually(async () => (await relay.lag()).publishedMessages >= 40, 30_000, 'relaying under load');
    await broker.stop();
    await beforeOutage;
    const outageStarted = Date.now();
    const slowestDuringOutage = await appendSteadily(fixture, billedRequests(150, 'during'), 5);
    await eventually(async () => (await relay.lag()).consecutiveFailures >= 2, 60_000, 'failed publish attempts');
    const lagDuringOutage = await relay.lag();
    console.log(`broker down ${Date.now() - outageStarted} ms: ${lagDuringOutage.eventsBehind} events behind, ${lagDuringOutage.consecutiveFailures} failed attempts, slowest append ${slowestDuringOutage} ms, last error: ${lagDuringOutage.lastError}`);
    expect(lagDuringOutage.eventsBehind).toBeGreaterThanOrEqual(450);
    expect(lagDuringOutage.lastError).not.toBeNull();
    expect(slowestDuringOutage).toBeLessThan(1_000);

    await broker.restart();
    await appendSteadily(fixture, billedRequests(60, 'after'), 5);
    await waitUntilCaughtUp(relay, 120_000);
    const { publishedMessages } = await relay.lag();

    const report = await reconcile({ kafka, store: fixture.store, window: { fromDay: null, untilDay: null }, topicPrefix });
    const storeTotals = sumDailyCosts((await readStoreRecords(fixture.store)).costs);
    const { producedInStore, consumed, duplicatesRemoved } = report.counts;
    console.log(`after catch-up: produced ${producedInStore} CostPriced (${publishedMessages} messages published), consumed ${consumed}, deduplicated ${duplicatesRemoved}`);
    expect(producedInStore).toBe(360);
    expect(report.missingFromKafka).toEqual([]);
    expect(report.unknownToStore).toEqual([]);
    expect(compareDailyTotals(report.kafkaTotals.byDay, storeTotals.byDay)).toEqual([]);
    expect(reportHasDifferences(report)).toBe(false);
  });
});
