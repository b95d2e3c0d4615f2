// A simultaneous burst well over the limit from every replica, with 2 and then 3 gateway processes
// sharing one store (SQLite file or PostgreSQL database): the organization's admissions stay within its limit plus the bound stated
// in docs/rate-limits.md, whatever the number of replicas. Each trial uses an organization of its own,
// so every trial starts from a full budget. Three processes are started once; the 2-replica trials
// send to two of them (the third never sees those organizations), which keeps the test under a minute.
// Run by replicas-burst.e2e-spec.ts and replicas-burst-postgres.e2e-spec.ts.
import { startSimulator, RunningSimulator } from '../../src/simulator/simulator';
import { startGatewayProcess, GatewayProcess, SHARED_CURSOR_KEY } from '../support/gateway-process';
import { writeTestConfig } from '../support/config-file';
import { hashApiKey } from '../../src/access/key-hash';
import type { ReplicaStore, ReplicaStoreKind } from '../support/replica-stores';

const KEY = 'sk-burst';
const LIMIT = 20;
/** docs/rate-limits.md: leased slices never sum past the limit, so the overshoot bound is 0. */
const OVERSHOOT_BOUND = 0;
const BURST_PER_REPLICA = 30;
const TRIALS = 4;

const REPLICA_COUNTS = [2, 3];
const RESTART_ORGANIZATION = 'org-burst-restart';
const organizationOf = (replicas: number, trial: number) => `org-burst-${replicas}-${trial}`;

export function describeReplicasBurst(kind: ReplicaStoreKind): void {
  describe(`replicas on ${kind.label} under a simultaneous burst`, () => {
    jest.setTimeout(120_000);
    let simulator: RunningSimulator;
    let store: ReplicaStore;
    let processes: GatewayProcess[];
    let env: Record<string, string>;

    beforeAll(async () => {
      simulator = await startSimulator();
      store = await kind.create('gw-burst-');
      const organizations = REPLICA_COUNTS.flatMap((count) => Array.from({ length: TRIALS }, (_, trial) => organizationOf(count, trial)));
      organizations.push(RESTART_ORGANIZATION);
      const config = writeTestConfig(store.rootDir, KEY, (raw) => {
        raw.organizations = organizations.map((id) => ({ id, payment_method: true, rate_limit: { requests: LIMIT, window_seconds: 600 } }));
        raw.keys = [{ id: 'key-burst', hash: hashApiKey(KEY), owner: 'test', organizations, default_organization: organizations[0] }];
      });
      env = { GATEWAY_CONFIG: config, SIMULATOR_URL: simulator.url, GATEWAY_CURSOR_SECRET: SHARED_CURSOR_KEY };
      processes = await Promise.all(Array.from({ length: Math.max(...REPLICA_COUNTS) }, (_, index) => startGatewayProcess({ ...env, ...store.replicaEnv(index) })));
      await Promise.all(processes.map((replica) => fetch(`${replica.url}/v1/models`).then((res) => res.arrayBuffer())));
    });
    afterAll(async () => {
      await Promise.all(processes.map((r) => r.kill()));
      await simulator.close();
      await store.cleanup();
    });

    const costs = (url: string, organization: string) =>
      fetch(`${url}/v1/organization/costs?start_time=0`, { headers: { authorization: `Bearer ${KEY}`, 'x-organization-id': organization } }).then(
        async (res) => {
          await res.arrayBuffer();
          return { status: res.status, remaining: Number(res.headers.get('x-ratelimit-remaining')), retryAfter: res.headers.get('retry-after') };
        },
      );

    it.each(REPLICA_COUNTS)(`%i replicas admit at most the limit (${LIMIT}) plus ${OVERSHOOT_BOUND} per trial, and record one RequestAdmitted per admission`, async (replicaCount) => {
      const replicas = processes.slice(0, replicaCount);
      const admittedPerTrial: number[] = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const organization = organizationOf(replicaCount, trial);
        const answers = await Promise.all(replicas.flatMap((replica) => Array.from({ length: BURST_PER_REPLICA }, () => costs(replica.url, organization))));
        const admitted = answers.filter((a) => a.status === 200);
        const refused = answers.filter((a) => a.status === 429);
        process.stdout.write(
          `${replicaCount} replicas, trial ${trial + 1}: ${answers.length} sent, ${admitted.length} admitted (limit ${LIMIT}), ${refused.length} refused\n`,
        );
        expect(admitted.length + refused.length).toBe(answers.length);
        expect(admitted.length).toBeLessThanOrEqual(LIMIT + OVERSHOOT_BOUND);
        // Remaining never promises more than the limit leaves, and every refusal says when to come back.
        for (const answer of admitted) expect(answer.remaining).toBeLessThanOrEqual(LIMIT - 1);
        for (const answer of refused) expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
        admittedPerTrial.push(admitted.length);
      }
      // The budget is not lost to the leasing either: most of it is used by a burst this large.
      expect(Math.min(...admittedPerTrial)).toBeGreaterThanOrEqual(LIMIT / 2);

      const shared = await store.open();
      const stored = await shared.readAll({ after: null, maxCount: 100_000 });
      await shared.close();
      const ofOrganization = (type: string, organization: string) =>
        stored.filter((e) => e.type === type && (e.data as { organizationId: string }).organizationId === organization).length;
      admittedPerTrial.forEach((admitted, trial) => {
        const organization = organizationOf(replicaCount, trial);
        expect(ofOrganization('RequestAdmitted', organization)).toBe(admitted);
        // Halving slices: about log2(limit) leases per replica, far fewer than admissions.
        const leases = ofOrganization('RateLimitSliceLeased', organization);
        process.stdout.write(`${replicaCount} replicas, trial ${trial + 1}: ${leases} lease appends for ${admitted} admissions\n`);
        expect(leases).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(LIMIT)) + replicaCount);
      });
    });

    it('a replica killed while holding a slice restarts from the lease stream: its slice still counts whole, nothing past the limit', async () => {
      const [doomed, survivor] = processes;
      for (let i = 0; i < 3; i++) expect((await costs(doomed.url, RESTART_ORGANIZATION)).status).toBe(200);
      await doomed.kill('SIGKILL');
      // Restarted on its own data directory (on PostgreSQL each replica has one).
      const restarted = await startGatewayProcess({ ...env, ...store.replicaEnv(0) });
      processes[0] = restarted;
      const answers = await Promise.all([restarted, survivor].flatMap((replica) => Array.from({ length: BURST_PER_REPLICA }, () => costs(replica.url, RESTART_ORGANIZATION))));
      const admittedAfter = answers.filter((a) => a.status === 200).length;
      process.stdout.write(`killed holding a slice of 10 (3 used), restarted: ${admittedAfter} more admitted, ${3 + admittedAfter} in all (limit ${LIMIT})\n`);
      // The dead replica's first slice (half of 20) counts whole until it expires; the other half is all that is left.
      expect(admittedAfter).toBe(LIMIT / 2);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(answers.length - admittedAfter);
    });
  });
}
