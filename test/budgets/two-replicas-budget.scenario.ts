// Two gateway processes on one store (SQLite file or PostgreSQL database), one key with a 0.001 USD limit:
// holds are conditional appends on the key's budget stream, so together the replicas never spend past the
// limit. Run by two-replicas-budget.e2e-spec.ts and two-replicas-budget-postgres.e2e-spec.ts.
import { startSimulator, RunningSimulator } from '../../src/simulator/simulator';
import { startGatewayProcesses, GatewayProcess, SHARED_CURSOR_KEY } from '../support/gateway-process';
import { writeTestConfig } from '../support/config-file';
import type { ReplicaStore, ReplicaStoreKind } from '../support/replica-stores';

const KEY = 'sk-budget-replicas';
const LIMIT_MICROS = 1000n;

export function describeTwoReplicasBudget(kind: ReplicaStoreKind): void {
  describe(`a spend limit across two replicas on ${kind.label}`, () => {
    jest.setTimeout(180_000);
    let simulator: RunningSimulator;
    let store: ReplicaStore;
    let replicas: GatewayProcess[] = [];

    beforeAll(async () => {
      simulator = await startSimulator();
      store = await kind.create('gw-budget-replicas-');
      const config = writeTestConfig(store.rootDir, KEY, (raw) => {
        raw.keys[0].limit_usd = '0.001';
        raw.organizations[0].rate_limit = { requests: 10_000, window_seconds: 60 };
      });
      const env = { GATEWAY_CONFIG: config, SIMULATOR_URL: simulator.url, GATEWAY_CURSOR_SECRET: SHARED_CURSOR_KEY };
      replicas = await startGatewayProcesses([0, 1].map((index) => ({ ...env, ...store.replicaEnv(index) })));
    });
    afterAll(async () => {
      await Promise.all(replicas.map((r) => r.kill()));
      await simulator?.close();
      await store?.cleanup();
    });

    const chat = (url: string, stream: boolean) =>
      fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'aria', messages: [{ role: 'user', content: 'Say hi in a few words.' }], max_tokens: 16, stream }),
      }).then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      });

    it('never spends past the limit with both replicas holding at once', async () => {
      const statuses: number[] = [];
      for (let round = 0, served = 1; round < 60 && served > 0; round++) {
        const outcomes = await Promise.all(replicas.flatMap((replica) => [false, true, false].map((stream) => chat(replica.url, stream))));
        served = outcomes.filter((status) => status === 200).length;
        statuses.push(...outcomes);
      }
      const shared = await store.open();
      const events = await shared.readAll({ after: null, maxCount: 100_000 });
      await shared.close();
      const costs = events.filter((e) => e.type === 'CostPriced').map((e) => BigInt((e.data as { costUsdMicros: number }).costUsdMicros));
      const spent = costs.reduce((sum, cost) => sum + cost, 0n);
      const holds = events.filter((e) => e.type === 'SpendHeld');
      const admitted = statuses.filter((s) => s === 200).length;
      const refused = statuses.filter((s) => s === 402).length;
      const byStatus = statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
      process.stdout.write(`two replicas, limit ${LIMIT_MICROS} micros: spent ${spent} micros over ${admitted} requests, ${refused} refused, ${holds.length} holds; statuses ${JSON.stringify(byStatus)}\n`);
      // Any other status: the replicas' first warnings and errors say why.
      const firstProblems = (replica: GatewayProcess) => replica.output().split('\n').filter((line) => /"level":(40|50|60)/.test(line)).slice(0, 5);
      if (admitted + refused !== statuses.length) process.stdout.write(`${replicas.flatMap(firstProblems).join('\n')}\n`);
      expect(admitted + refused).toBe(statuses.length);
      expect(refused).toBeGreaterThan(0);
      expect(costs).toHaveLength(admitted);
      expect(holds).toHaveLength(admitted);
      expect(spent).toBeLessThanOrEqual(LIMIT_MICROS);
    });
  });
}
