// `npm run reconcile` end to end: real broker, the store and read model in a data dir, a cost API, and the
// upstream attempts (gateway.upstream-attempt) with their cost of goods.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openReadModelDb } from '../../src/projections/read-model-db';
import { DailyCostProjection } from '../../src/costs/read-model/daily-cost.projection';
import { requestStreamId } from '../../src/event-store/event-ids';
import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { toOutgoingMessage, topicFor } from '../../src/kafka/billing-topics';
import { attemptEvents, billedRequests, type BilledRequest } from './support/billing-event-fixtures';
import { brokers, describeWithBroker, testKafka, uniqueTopicPrefix } from './support/broker-env';
import { startFakeCostApi } from './support/fake-cost-api';
import { StoreFixture, waitUntilCaughtUp } from './support/relay-harness';

jest.setTimeout(180_000);

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

interface CliResult {
  code: number;
  stdout: string;
}

function dailyMicrosOf(requests: BilledRequest[], organizationId: string): Map<string, number> {
  const byDay = new Map<string, number>();
  for (const request of requests) {
    if (request.organizationId !== organizationId || request.costUsdMicros === null) continue;
    const day = request.occurredAt.slice(0, 10);
    byDay.set(day, (byDay.get(day) ?? 0) + request.costUsdMicros);
  }
  return byDay;
}

describeWithBroker('npm run reconcile', () => {
  const requests = billedRequests(90, 'cli');
  const fixture = new StoreFixture();
  let topicPrefix: string;

  async function reconcileCli(args: string[]): Promise<CliResult> {
    const env = { ...process.env, KAFKA_BROKERS: brokers, KAFKA_TOPIC_PREFIX: topicPrefix, GATEWAY_DATA_DIR: fixture.dataDir };
    try {
      const { stdout } = await run('node', ['-r', 'ts-node/register/transpile-only', 'src/kafka/cli/reconcile.cli.ts', ...args], { cwd: ROOT, env });
      return { code: 0, stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: `${failed.stdout}${failed.stderr}` };
    }
  }

  beforeAll(async () => {
    topicPrefix = uniqueTopicPrefix();
    await fixture.open();
    await fixture.appendRequests(requests);
    for (const [index, request] of requests.entries()) await fixture.store.append(requestStreamId(request.requestId), attemptEvents(request, index));
    const relay = fixture.relay(brokers, { topicPrefix });
    await relay.start();
    await waitUntilCaughtUp(relay, 60_000);
    await relay.stop();
    const readModelDb = openReadModelDb(fixture.dataDir);
    const projection = new DailyCostProjection(readModelDb);
    for (const event of await fixture.store.readAll({ after: null, maxCount: 10_000 })) projection.apply(event);
    readModelDb.close();
  });

  afterAll(() => fixture.destroy());

  it('exits 0 and prints MATCH when Kafka, the store, the read model and the cost API agree', async () => {
    const api = await startFakeCostApi(dailyMicrosOf(requests, 'org-beta'));
    const result = await reconcileCli(['--from', 'earliest', '--gateway-url', api.url, '--api-key', 'sk-test', '--organization', 'org-beta']);
    await api.close();
    console.log(result.stdout);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('counts: produced 90 (CostPriced in the store), consumed 90, duplicates removed 0');
    expect(result.stdout).toMatch(/cost read model \(checkpoint \d+\) against the store replayed to that checkpoint: 9 organization-days, 0 differ/);
    expect(result.stdout).toContain('gateway /v1/organization/costs for org-beta:');
    // 90 served attempts (84 of priced requests carry a cost of goods) and 30 failed ones before them.
    expect(result.stdout).toContain('counts: produced 120 (UpstreamAttemptRecorded in the store), consumed 120, duplicates removed 0, unique 120, with cost of goods 84');
    expect(result.stdout).toContain('attempt ids: 0 missing from Kafka, 0 in Kafka but not in the store, 0 fields differ');
    expect(result.stdout).toMatch(/match {2}org-alpha aria dep-west 2026-11-19 {2}\d+ attempts, cost of goods \d+ micros/);
    expect(result.stdout).toContain('result: MATCH');
    expect(api.requests.length).toBeGreaterThan(1);
    expect(api.requests.every((request) => request.authorization === 'Bearer sk-test' && request.organization === 'org-beta')).toBe(true);
  });

  it('exits 1 and names the day when the cost API is off by a cent', async () => {
    const wrong = dailyMicrosOf(requests, 'org-beta');
    wrong.set('2026-11-20', (wrong.get('2026-11-20') ?? 0) + 10_000);
    const api = await startFakeCostApi(wrong);
    const result = await reconcileCli(['--from', '2026-11-20', '--gateway-url', api.url, '--api-key', 'sk-test', '--organization', 'org-beta']);
    await api.close();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/DIFF +2026-11-20 +kafka 1.10984 USD, gateway 1.11984 USD/);
    expect(result.stdout).not.toContain('2026-11-19');
    expect(result.stdout).toContain('result: DIFFERENCES FOUND');
  });

  it('exits 1 naming an attempt missing on Kafka, one unknown to the store and a cost of goods that differs', async () => {
    const late: BilledRequest = { requestId: 'cli-late', organizationId: 'org-alpha', occurredAt: '2026-11-21T08:00:00.000Z', costUsdMicros: 5_000 };
    const [lost] = attemptEvents(late, 1);
    const wrongCost: BilledRequest = { ...late, requestId: 'cli-wrong-cost' };
    const [stored] = attemptEvents(wrongCost, 1);
    const stranger: BilledRequest = { ...late, requestId: 'cli-stranger' };
    const [unknown] = attemptEvents(stranger, 1);
    await fixture.store.append(requestStreamId(late.requestId), [lost]);
    await fixture.store.append(requestStreamId(wrongCost.requestId), [stored]);
    const relayedOtherwise = { ...stored, data: { ...(stored.data as object), costOfGoodsUsdMicros: '3001' } };
    const producer = testKafka().producer();
    await producer.connect();
    for (const event of [relayedOtherwise, unknown]) {
      const recorded: RecordedEvent = { ...event, metadata: event.metadata ?? {}, streamId: 'not-in-the-store', revision: 0, position: '0', recordedAt: late.occurredAt };
      const message = toOutgoingMessage(recorded, topicPrefix)!;
      expect(message.topic).toBe(topicFor('UpstreamAttemptRecorded', 1, topicPrefix));
      await producer.send({ topic: message.topic, messages: [{ key: message.key, value: message.value, headers: message.headers }] });
    }
    await producer.disconnect();
    const result = await reconcileCli(['--from', '2026-11-21']);
    console.log(result.stdout);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('attempt ids: 1 missing from Kafka, 1 in Kafka but not in the store, 1 fields differ');
    expect(result.stdout).toContain(`missing from Kafka: 1\n    ${lost.id}`);
    expect(result.stdout).toContain(`unknown to the store: 1\n    ${unknown.id}`);
    expect(result.stdout).toContain(`${stored.id} costOfGoodsUsdMicros: kafka 3001, store 3000`);
    expect(result.stdout).toMatch(/DIFF {3}org-alpha aria dep-west 2026-11-21 {2}kafka \d+ attempts \d+ micros, store \d+ attempts \d+ micros/);
    expect(result.stdout).toContain('result: DIFFERENCES FOUND');
  });

  it('exits 2 with the usage on a bad command line', async () => {
    const result = await reconcileCli(['--from', 'someday']);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('usage: npm run reconcile');
  });
});
