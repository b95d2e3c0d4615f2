// A gateway on PostgreSQL whose database goes away and comes back: while it cannot connect, requests are
// refused in the spec's error envelope (never served unbilled, never hung), and once the database accepts
// connections again the same process serves and bills without a restart. The outage is made on the server:
// the database stops accepting connections and the gateway's sessions are ended.
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { writeTestConfig } from '../support/config-file';
import { postgresReplicaStore, type ReplicaStore } from '../support/replica-stores';
import { testPostgresUrl, withClient } from '../support/postgres-database';

const KEY = 'sk-postgres-outage';
jest.setTimeout(120_000);

describe('a gateway on PostgreSQL through a database outage', () => {
  let simulator: RunningSimulator;
  let store: ReplicaStore;
  let gateway: GatewayProcess;
  let databaseName: string;

  beforeAll(async () => {
    simulator = await startSimulator();
    store = await postgresReplicaStore.create('gw-postgres-outage-');
    const config = writeTestConfig(store.rootDir, KEY, (raw) => (raw.organizations[0].rate_limit = { requests: 10_000, window_seconds: 60 }));
    const replicaEnv = store.replicaEnv(0);
    databaseName = new URL(replicaEnv.GATEWAY_POSTGRES_URL).pathname.slice(1);
    const env = { GATEWAY_CONFIG: config, SIMULATOR_URL: simulator.url, ...replicaEnv };
    gateway = await startGatewayProcess(env);
  });
  afterAll(async () => {
    await setConnections(true).catch(() => undefined);
    await gateway?.kill();
    await simulator?.close();
    await store?.cleanup();
  });

  const setConnections = (allowed: boolean) =>
    withClient(testPostgresUrl(), async (admin) => {
      await admin.query(`ALTER DATABASE ${databaseName} WITH ALLOW_CONNECTIONS ${allowed}`);
      if (!allowed) await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [databaseName]);
    });

  const chat = () =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'aria', messages: [{ role: 'user', content: 'Say hi.' }], max_tokens: 8 }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

  const costPriced = async () => {
    const events = await store.open();
    try {
      return (await events.readAll({ after: null, maxCount: 10_000 })).filter((e) => e.type === 'CostPriced').length;
    } finally {
      await events.close();
    }
  };

  it('refuses with a 503 envelope while the database is gone, and serves and bills again once it is back', async () => {
    expect((await chat()).status).toBe(200);

    await setConnections(false);
    const started = performance.now();
    const refused = await chat();
    console.log(`database gone: answered ${refused.status} ${refused.body.error?.code} after ${(performance.now() - started).toFixed(0)} ms`);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toEqual(expect.objectContaining({ type: 'service_unavailable', code: expect.any(String), message: expect.any(String) }));

    await setConnections(true);
    let answer = await chat();
    for (let attempt = 0; answer.status !== 200 && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await chat();
    }
    expect(answer.status).toBe(200);
    // Both served answers are billed; the refused one is not.
    expect(await costPriced()).toBe(2);
    expect(gateway.output()).toContain('PostgreSQL connection lost');
  });
});
