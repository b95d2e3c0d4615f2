// Two gateway processes share one store (a SQLite file in WAL mode, or one PostgreSQL database): together
// they admit at most the organization's limit (leased budget slices: docs/rate-limits.md), and neither
// double-counts nor loses costs. Run by two-replicas.e2e-spec.ts and two-replicas-postgres.e2e-spec.ts.
import { startSimulator, RunningSimulator } from '../../src/simulator/simulator';
import { startGatewayProcesses, GatewayProcess, SHARED_CURSOR_KEY } from '../support/gateway-process';
import { writeTestConfig } from '../support/config-file';
import type { ReplicaStore, ReplicaStoreKind } from '../support/replica-stores';
import { openReadModelDb } from '../../src/projections/read-model-db';
import { CostReadModel } from '../../src/costs/read-model/cost-read-model';
import { checkLedger } from '../../src/costs/read-model/ledger-check';

const KEY = 'sk-replicas';
const LIMIT = 40;
const CONCURRENCY_PER_REPLICA = 4;

export function describeTwoReplicas(kind: ReplicaStoreKind): void {
  describe(`two replicas on ${kind.label}`, () => {
    jest.setTimeout(180_000);
    let simulator: RunningSimulator;
    let store: ReplicaStore;
    let replicas: GatewayProcess[] = [];

    beforeAll(async () => {
      simulator = await startSimulator();
      store = await kind.create('gw-replicas-');
      const config = writeTestConfig(store.rootDir, KEY, (raw) => (raw.organizations[0].rate_limit = { requests: LIMIT, window_seconds: 600 }));
      const env = { GATEWAY_CONFIG: config, SIMULATOR_URL: simulator.url, GATEWAY_CURSOR_SECRET: SHARED_CURSOR_KEY };
      replicas = await startGatewayProcesses([0, 1].map((index) => ({ ...env, ...store.replicaEnv(index) })));
    });
    afterAll(async () => {
      await Promise.all(replicas.map((r) => r.kill()));
      await simulator?.close();
      await store?.cleanup();
    });

    const decide = (url: string) =>
      fetch(`${url}/v1/decisions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'verdict', input: 'evidence', questions: [{ type: 'predicate', instructions: 'true?' }] }),
      }).then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      });

    it('admits at most the limit across both replicas, and the shared cost read model counts each cost once', async () => {
      const statuses: number[] = [];
      const clients = replicas.flatMap((replica) =>
        Array.from({ length: CONCURRENCY_PER_REPLICA }, async () => {
          for (let i = 0; i < 12; i++) statuses.push(await decide(replica.url));
        }),
      );
      await Promise.all(clients);
      const admitted = statuses.filter((s) => s === 200).length;
      const refused = statuses.filter((s) => s === 429).length;
      process.stdout.write(`two replicas: ${statuses.length} sent, ${admitted} admitted (limit ${LIMIT}), ${refused} refused\n`);
      expect(admitted + refused).toBe(statuses.length);
      // Tokens a replica still held unused when its clients stopped are the only budget left over.
      expect(admitted).toBeGreaterThanOrEqual(LIMIT / 2);
      expect(admitted).toBeLessThanOrEqual(LIMIT);

      const events = await store.open();
      // Replica 0's read model: on PostgreSQL each replica projects the shared events into its own.
      const db = openReadModelDb(store.dataDir(0));
      const billed = (await events.readAll({ after: null, maxCount: 100_000 })).filter((e) => e.type === 'CostPriced');
      const micros = billed.reduce((sum, e) => sum + (e.data as { costUsdMicros: number }).costUsdMicros, 0);
      expect(billed).toHaveLength(admitted);
      const readModel = new CostReadModel(db);
      const projected = () => readModel.dailyTotalsSnapshot().totals.reduce((sum, t) => sum + t.amountUsdMicros, 0n);
      // A bound on the wait for the shared read model, not a timing assertion (busy machines are slow).
      for (const deadline = Date.now() + 60_000; projected() !== BigInt(micros) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      expect(projected()).toBe(BigInt(micros));
      const ledger = await checkLedger(events, readModel);
      db.close();
      await events.close();
      expect(ledger.differences).toEqual([]);
    });
  });
}
