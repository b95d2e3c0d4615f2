// The whole path on a real broker: requests answered by a gateway with its relay on, then
// `npm run reconcile` compares Kafka with the store, the cost read model and the gateway's own
// GET /v1/organization/costs, and the upstream attempts (two priced deployments) with the store's, and
// finds no difference.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { brokers, describeWithBroker, uniqueTopicPrefix } from './support/broker-env';

jest.setTimeout(180_000);
const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

describeWithBroker('reconcile against a live gateway', () => {
  let gw: TestGateway;
  const topicPrefix = uniqueTopicPrefix();

  beforeAll(async () => {
    process.env.KAFKA_TOPIC_PREFIX = topicPrefix;
    gw = await startTestGateway({
      env: { kafkaBrokers: brokers.split(',') },
      configure: (config) => {
        config.organizations[0].rate_limit = { requests: 1000, window_seconds: 60 };
        const aria = config.models.find((model) => model.id === 'aria')!;
        const { base_url, api_key, health_url, timeout_ms, cold_start_seconds } = aria.upstream;
        const deployment = { base_url, api_key, health_url, timeout_ms, cold_start_seconds, weight: 1, max_concurrency: null, cost: aria.pricing };
        aria.deployments = [{ id: 'sim-east', ...deployment }, { id: 'sim-west', ...deployment }];
      },
    });
  });
  afterAll(async () => {
    await gw.close();
    delete process.env.KAFKA_TOPIC_PREFIX;
  });

  it('reports zero difference between Kafka, the store, the read model, the cost API and the attempts', async () => {
    const client = gw.openai();
    for (let i = 0; i < 20; i++) await client.chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: `question ${i}` }] });
    const relay = gw.gateway.runtime.relay!;
    for (const deadline = Date.now() + 60_000; (await relay.lag()).eventsBehind > 0; ) {
      if (Date.now() > deadline) throw new Error('relay did not catch up');
      await new Promise((r) => setTimeout(r, 200));
    }
    const env = { ...process.env, KAFKA_BROKERS: brokers, KAFKA_TOPIC_PREFIX: topicPrefix, GATEWAY_DATA_DIR: gw.dataDir };
    const { stdout } = await run(
      'node',
      ['-r', 'ts-node/register/transpile-only', 'src/kafka/cli/reconcile.cli.ts', '--from', 'earliest', '--gateway-url', gw.baseUrl, '--api-key', gw.apiKey],
      { cwd: ROOT, env },
    );
    process.stdout.write(stdout);
    expect(stdout).toContain('consumed 20, duplicates removed 0, unique 20, unpriced 0');
    const attempts = await gw.events('UpstreamAttemptRecorded');
    expect(attempts).toHaveLength(20);
    expect(stdout).toContain('counts: produced 20 (UpstreamAttemptRecorded in the store), consumed 20, duplicates removed 0, unique 20, with cost of goods 20');
    expect(stdout).toContain('attempt ids: 0 missing from Kafka, 0 in Kafka but not in the store, 0 fields differ');
    expect(stdout).toMatch(/match {2}\S+ aria sim-(east|west) \d{4}-\d{2}-\d{2} {2}\d+ attempts, cost of goods [1-9]\d* micros/);
    expect(stdout).toContain('result: MATCH');
    expect(stdout).not.toMatch(/not checked/);
  });
});
