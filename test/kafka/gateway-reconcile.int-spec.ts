// The whole path on a real broker: requests answered by a gateway with its relay on, then
// `npm run reconcile` compares Kafka with the store, the cost read model and the gateway's own
// GET /v1/organization/costs, and finds no difference.
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
      configure: (config) => (config.organizations[0].rate_limit = { requests: 1000, window_seconds: 60 }),
    });
  });
  afterAll(async () => {
    await gw.close();
    delete process.env.KAFKA_TOPIC_PREFIX;
  });

  it('reports zero difference between Kafka, the store, the read model and the cost API', async () => {
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
    expect(stdout).toContain('consumed 20');
    expect(stdout).toContain('result: MATCH');
    expect(stdout).not.toMatch(/not checked/);
  });
});
