// The relay against a real broker: every billing event arrives once, keyed and labelled, and the
// reconciliation of what arrived against the store is exact.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { topicFor } from '../../src/kafka/billing-topics';
import { reconcile, reportHasDifferences } from '../../src/kafka/reconcile/reconcile';
import { formatReport } from '../../src/kafka/reconcile/report-format';
import { billedRequests } from './support/billing-event-fixtures';
import { BillingService } from '../../src/billing/billing.service';
import { BudgetHolds } from '../../src/budgets/budget-holds';
import type { BudgetThresholdCrossedV1 } from '../../src/budgets/budget.events';
import { fixtureModel } from '../support/catalog-model.fixture';
import type { UsageDisputedV1 } from '../../src/billing/billing.events';
import { brokers, describeWithBroker, testKafka, uniqueTopicPrefix } from './support/broker-env';
import { header, readAllMessages, StoreFixture, waitUntilCaughtUp } from './support/relay-harness';

jest.setTimeout(120_000);

describeWithBroker('KafkaRelay against a real broker', () => {
  let kafka: Kafka;
  let fixture: StoreFixture;

  beforeAll(() => {
    kafka = testKafka();
  });

  beforeEach(async () => {
    fixture = new StoreFixture();
    await fixture.open();
  });

  afterEach(() => fixture.destroy());

  it('publishes every UsageMeasured and CostPriced keyed by organization, with id, type and schema headers', async () => {
    const topicPrefix = uniqueTopicPrefix();
    await fixture.appendRequests(billedRequests(150, 'keyed'));
    const relay = fixture.relay(brokers, { topicPrefix, batchSize: 40 });
    await relay.start();
    await waitUntilCaughtUp(relay, 60_000);
    const { publishedMessages } = await relay.lag();
    await relay.stop();

    const stored = (await fixture.store.readAll({ after: null, maxCount: 10_000 })).filter((event) => event.type !== 'RequestAdmitted');
    const usage = await readAllMessages(kafka, topicFor('UsageMeasured', 1, topicPrefix));
    const cost = await readAllMessages(kafka, topicFor('CostPriced', 1, topicPrefix));
    const messages = [...usage, ...cost];
    const uniqueIds = new Set(messages.map((message) => header(message, 'event-id')));
    const storedById = new Map(stored.map((event) => [event.id, event]));
    console.log(
      `relay: produced ${publishedMessages}, consumed ${messages.length} (${usage.length} usage, ${cost.length} cost), ` +
        `deduplicated ${messages.length - uniqueIds.size} (at-least-once: producer retries may repeat a message)`,
    );

    expect(publishedMessages).toBe(stored.length);
    expect([...uniqueIds].sort()).toEqual([...storedById.keys()].sort());
    for (const message of messages) {
      const event = storedById.get(header(message, 'event-id') as string)!;
      expect(message.key?.toString()).toBe((event.data as { organizationId: string }).organizationId);
      expect(header(message, 'event-type')).toBe(event.type);
      expect(header(message, 'schema-version')).toBe('1');
      expect(JSON.parse(message.value!.toString())).toEqual(event.data);
    }
  });

  it('reconciles exactly with the store once caught up, live appends included', async () => {
    const topicPrefix = uniqueTopicPrefix();
    await fixture.appendRequests(billedRequests(60, 'before'));
    const relay = fixture.relay(brokers, { topicPrefix, idlePollMs: 200 });
    await relay.start();
    await fixture.appendRequests(billedRequests(60, 'after-start'));
    await waitUntilCaughtUp(relay, 60_000);
    await relay.stop();

    const report = await reconcile({ kafka, store: fixture.store, window: { fromDay: null, untilDay: null }, topicPrefix });
    console.log(formatReport(report));
    expect(report.counts).toMatchObject({ producedInStore: 120, unique: 120 });
    expect(report.counts.consumed - report.counts.duplicatesRemoved).toBe(120);
    expect(reportHasDifferences(report)).toBe(false);
    expect(report.kafkaTotals.byDay.size).toBe(9);
  });

  it('parks billing events it cannot key, publishes the ones around them, and keeps the list in its checkpoint file', async () => {
    const topicPrefix = uniqueTopicPrefix();
    await fixture.appendRequests(billedRequests(10, 'before-poison'));
    const hostile: [string, unknown][] = [['CostPriced', { requestId: 'no-org', costUsdMicros: 1 }], ['UsageMeasured', null], ['CostPriced', 'garbage']];
    const hostileIds = hostile.map(() => randomUUID());
    for (const [n, [type, data]] of hostile.entries()) await fixture.store.append(`hostile-${n}`, [{ id: hostileIds[n], type, data, metadata: { schemaVersion: 1 } }]);
    await fixture.appendRequests(billedRequests(10, 'after-poison'));
    const relay = fixture.relay(brokers, { topicPrefix, batchSize: 25 });
    await relay.start();
    await waitUntilCaughtUp(relay, 60_000);
    const status = await relay.lag();
    await relay.stop();

    const messages = [...(await readAllMessages(kafka, topicFor('UsageMeasured', 1, topicPrefix))), ...(await readAllMessages(kafka, topicFor('CostPriced', 1, topicPrefix)))];
    const ids = new Set(messages.map((message) => header(message, 'event-id')));
    const saved = JSON.parse(readFileSync(fixture.checkpointFile, 'utf8')) as { position: string; parked: { eventId: string }[] };
    console.log(`relay with 3 hostile events: ${ids.size} unique messages in Kafka (40 expected), ${status.parkedEvents} parked, checkpoint ${saved.position}`);
    expect(ids.size).toBe(40);
    expect(hostileIds.some((id) => ids.has(id))).toBe(false);
    expect(status).toMatchObject({ eventsBehind: 0, parkedEvents: 3 });
    expect(saved.parked.map((event) => event.eventId)).toEqual(hostileIds);
    expect(saved.position).toBe(await fixture.store.headPosition());
  });

  it('publishes the disagreement of a disputed charge on gateway.usage-disputed.v1, keyed by organization', async () => {
    const topicPrefix = uniqueTopicPrefix();
    const billing = new BillingService(fixture.store, 'test-prices');
    const caller = { organizationId: 'org-disputes', keyId: 'key-1' } as never;
    await billing.charge({
      ctx: { requestId: 'disputed-1', correlationId: null, caller },
      model: fixtureModel(),
      endpoint: '/v1/chat/completions',
      measurement: {
        reported: { promptTokens: 1e15, completionTokens: 5000 },
        limits: { promptEstimate: 9, completionCounted: 3, completionCap: 10, choices: 1, contextLength: 32_768 },
        input: {},
        output: {},
      },
    });
    const relay = fixture.relay(brokers, { topicPrefix });
    await relay.start();
    await waitUntilCaughtUp(relay, 60_000);
    await relay.stop();

    const disputed = await readAllMessages(kafka, topicFor('UsageDisputed', 1, topicPrefix));
    expect(disputed).toHaveLength(1);
    expect(disputed[0].key?.toString()).toBe('org-disputes');
    expect(header(disputed[0], 'event-type')).toBe('UsageDisputed');
    const payload = JSON.parse(disputed[0].value!.toString()) as UsageDisputedV1;
    console.log(`disputed charge on Kafka: ${JSON.stringify(payload.disputes)}`);
    expect(payload).toMatchObject({ requestId: 'disputed-1', organizationId: 'org-disputes', model: 'symphony-notes' });
    expect(payload.disputes.map((dispute) => [dispute.field, dispute.reported, dispute.billed])).toEqual([
      ['prompt_tokens', '1000000000000000', 9],
      ['completion_tokens', '5000', 3],
    ]);
  });

  it('publishes a crossed budget threshold on gateway.budget-threshold.v1, keyed by organization', async () => {
    const topicPrefix = uniqueTopicPrefix();
    const billing = new BillingService(fixture.store, 'test-prices', undefined, null, null, new BudgetHolds(fixture.store));
    // 20 micros a day; the charge below costs 9 x 1 + 3 x 2 = 15 micros: 75%, past 50% only.
    const caller = { organizationId: 'org-budget-alerts', keyId: 'key-alerted', limits: { key: { limitUsdMicros: 20n, reset: 'daily' }, organization: null } } as never;
    await billing.charge({
      ctx: { requestId: 'threshold-1', correlationId: null, caller },
      model: fixtureModel(),
      endpoint: '/v1/chat/completions',
      measurement: { upstream: { promptTokens: 9, completionTokens: 3 }, input: {}, output: {} },
    });
    const relay = fixture.relay(brokers, { topicPrefix });
    await relay.start();
    await waitUntilCaughtUp(relay, 60_000);
    await relay.stop();

    const crossed = await readAllMessages(kafka, topicFor('BudgetThresholdCrossed', 1, topicPrefix));
    expect(crossed).toHaveLength(1);
    expect(crossed[0].key?.toString()).toBe('org-budget-alerts');
    expect(header(crossed[0], 'event-type')).toBe('BudgetThresholdCrossed');
    const payload = JSON.parse(crossed[0].value!.toString()) as BudgetThresholdCrossedV1;
    console.log(`budget threshold on Kafka: ${JSON.stringify(payload)}`);
    expect(payload).toMatchObject({ organizationId: 'org-budget-alerts', scope: 'key', scopeId: 'key-alerted', thresholdPercent: 50, limitUsdMicros: '20', spentUsdMicros: '15', reset: 'daily', requestId: 'threshold-1' });
  });
});
