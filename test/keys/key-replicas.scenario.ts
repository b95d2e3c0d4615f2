// Two gateway processes on one store (SQLite file or PostgreSQL database): a key issued on replica A works
// on replica B once B's registry folds ApiKeyIssued, and a key revoked on A is refused on B within the
// subscription lag, which is measured and printed (ms from A's 200 to B's first 401). A budget and a usage
// format set on A hold on B.
// Run by key-replicas.e2e-spec.ts and key-replicas-postgres.e2e-spec.ts.
import { startSimulator, RunningSimulator } from '../../src/simulator/simulator';
import { startGatewayProcesses, GatewayProcess, SHARED_CURSOR_KEY } from '../support/gateway-process';
import { writeTestConfig } from '../support/config-file';
import { hashApiKey } from '../../src/access/key-hash';
import type { ReplicaStore, ReplicaStoreKind } from '../support/replica-stores';

const MODEL_KEY = 'sk-replicas-keys';
const MANAGEMENT_KEY = 'sk-mgmt-replicas-0123456789';
const DEADLINE_MS = 10_000;

export function describeKeyReplicas(kind: ReplicaStoreKind): void {
  describe(`key changes across two replicas on ${kind.label}`, () => {
    jest.setTimeout(120_000);
    let simulator: RunningSimulator;
    let store: ReplicaStore;
    let a: GatewayProcess;
    let b: GatewayProcess;

    beforeAll(async () => {
      simulator = await startSimulator();
      store = await kind.create('gw-key-replicas-');
      const config = writeTestConfig(store.rootDir, MODEL_KEY, (raw) => {
        raw.organizations[0].rate_limit = { requests: 1_000_000, window_seconds: 60 };
        raw.management_keys = [{ id: 'mgmt-replicas', hash: hashApiKey(MANAGEMENT_KEY) }];
      });
      const env = { GATEWAY_CONFIG: config, SIMULATOR_URL: simulator.url, GATEWAY_CURSOR_SECRET: SHARED_CURSOR_KEY };
      [a, b] = await startGatewayProcesses([0, 1].map((index) => ({ ...env, ...store.replicaEnv(index) })));
    });
    afterAll(async () => {
      await Promise.all([a, b].filter(Boolean).map((r) => r.kill()));
      await simulator?.close();
      await store?.cleanup();
    });

    const management = (url: string, method: string, path: string, body?: unknown) =>
      fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${MANAGEMENT_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

    const ownKey = (url: string, key: string) =>
      fetch(`${url}/v1/key`, { headers: { authorization: `Bearer ${key}` } }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

    /** Polls until `done` holds; returns the ms it took and the last answer. */
    async function until(check: () => Promise<{ status: number; body: any }>, done: (status: number, body: any) => boolean) {
      const started = performance.now();
      for (;;) {
        const answer = await check();
        if (done(answer.status, answer.body)) return { ms: performance.now() - started, answer };
        if (performance.now() - started > DEADLINE_MS) throw new Error(`not reached within ${DEADLINE_MS} ms: last ${answer.status}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }

    it('refuses on B a key revoked on A, within the measured lag', async () => {
      const issued = await management(a.url, 'POST', '/v1/keys', { name: 'replicated', organizations: ['org-demo'] });
      expect(issued.status).toBe(201);
      const { id, key } = issued.body as { id: string; key: string };
      const seen = await until(() => ownKey(b.url, key), (status) => status === 200);
      expect(seen.answer.body).toMatchObject({ id, name: 'replicated' });

      const revoked = await management(a.url, 'DELETE', `/v1/keys/${id}`);
      expect(revoked.status).toBe(200);
      expect((await ownKey(a.url, key)).status).toBe(401);
      const refused = await until(() => ownKey(b.url, key), (status) => status !== 200);
      process.stdout.write(`key replicas: issued on A usable on B after ${seen.ms.toFixed(1)} ms; revoked on A refused on B after ${refused.ms.toFixed(1)} ms\n`);
      expect(refused.answer.status).toBe(401);
      expect(refused.answer.body.error.code).toBe('revoked_api_key');

      const concurrent = await Promise.all([a, b].map((replica) => management(replica.url, 'PATCH', `/v1/keys/${id}`, { name: 'late' })));
      expect(concurrent.map((r) => r.body.error?.code)).toEqual(['key_revoked', 'key_revoked']);
    });

    it('gives B the organization budget set on A', async () => {
      expect((await management(a.url, 'PUT', '/v1/organizations/org-demo/budget', { limit_usd: '3.5', limit_reset: 'weekly' })).status).toBe(200);
      const seen = (await until(() => management(b.url, 'GET', '/v1/organizations/org-demo/budget'), (_status, body) => body.source === 'api')).answer.body;
      expect(seen).toMatchObject({ limit_usd: '3.5', limit_reset: 'weekly', source: 'api' });
    });

    it('gives B the usage format set on A: its answers carry OpenAI\'s token fields once B folds the event', async () => {
      const chat = (url: string) =>
        fetch(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${MODEL_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'aria', messages: [{ role: 'user', content: 'hello' }] }),
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));
      expect(Object.keys((await chat(b.url)).body.usage)).toEqual(['input', 'output', 'cost_usd_micros']);
      expect((await management(a.url, 'PUT', '/v1/organizations/org-demo/usage-format', { usage_format: 'openai' })).status).toBe(200);
      const seen = await until(() => chat(b.url), (status, body) => status === 200 && body.usage.prompt_tokens !== undefined);
      process.stdout.write(`key replicas: usage format set on A served by B after ${seen.ms.toFixed(1)} ms\n`);
      expect(seen.answer.body.usage).toMatchObject({ prompt_tokens: expect.any(Number), total_tokens: expect.any(Number) });
      expect((await management(b.url, 'GET', '/v1/organizations/org-demo/usage-format')).body).toMatchObject({ usage_format: 'openai', source: 'api' });
      await management(a.url, 'PUT', '/v1/organizations/org-demo/usage-format', { usage_format: 'spec' });
    });

    it('lets exactly one of two replicas revoke a key at the same moment; the other answers 409', async () => {
      const { body } = await management(a.url, 'POST', '/v1/keys', { name: 'raced', organizations: ['org-demo'] });
      await until(() => management(b.url, 'GET', `/v1/keys/${body.id as string}`), (status) => status === 200);
      const answers = await Promise.all([a, b].map((replica) => management(replica.url, 'DELETE', `/v1/keys/${body.id as string}`)));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const shared = await store.open();
      const stream = await shared.readStream(`api-key-${body.id as string}`);
      await shared.close();
      expect(stream.map((e) => e.type)).toEqual(['ApiKeyIssued', 'ApiKeyRevoked']);
    });
  });
}
