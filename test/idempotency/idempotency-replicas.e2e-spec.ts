// Idempotency-Key across processes (docs/idempotency.md): two replicas sharing one SQLite file let
// exactly one of ten concurrent duplicates run; a replica killed (SIGKILL) after the charge is retried
// after restart and the key still carries one charge.
import { startSimulator, RunningSimulator } from '../../src/simulator/simulator';
import type { EventStore, RecordedEvent } from '../../src/event-store/event-store.port';
import { requestStreamId } from '../../src/event-store/event-ids';
import { startGatewayProcess, startGatewayProcesses, GatewayProcess, SHARED_CURSOR_KEY } from '../support/gateway-process';
import { writeTestConfig } from '../support/config-file';
import { sqliteReplicaStore, type ReplicaStore } from '../support/replica-stores';

const KEY = 'sk-idempotency';
const CHAT = { model: 'aria', messages: [{ role: 'user', content: 'Say hello to the gateway.' }] };

describe('Idempotency-Key on two replicas and across a SIGKILL', () => {
  jest.setTimeout(180_000);
  let simulator: RunningSimulator;
  let store: ReplicaStore;
  let events: EventStore;
  let env: Record<string, string>;
  let replicas: GatewayProcess[];

  beforeAll(async () => {
    simulator = await startSimulator();
    store = await sqliteReplicaStore.create('gw-idempotency-');
    const config = writeTestConfig(store.rootDir, KEY);
    // A short lease: a killed claimant is taken as dead two seconds after its last renewal.
    env = { GATEWAY_CONFIG: config, SIMULATOR_URL: simulator.url, GATEWAY_CURSOR_SECRET: SHARED_CURSOR_KEY, GATEWAY_IDEMPOTENCY_LEASE_SECONDS: '2', ...store.replicaEnv(0) };
    replicas = await startGatewayProcesses([env, env]);
    events = await store.open();
  });
  afterAll(async () => {
    await events?.close();
    await Promise.all((replicas ?? []).map((replica) => replica.kill()));
    await simulator?.close();
    await store?.cleanup();
  });

  const post = (url: string, key: string, signal?: AbortSignal) =>
    fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(CHAT),
      signal,
    }).then(async (res) => ({ status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', requestId: res.headers.get('x-request-id'), text: await res.text() }));
  const all = async (): Promise<RecordedEvent[]> => events.readAll({ after: null, maxCount: 100_000 });
  const claimantsOf = async (key: string) => {
    const claims = (await all()).filter((event) => event.type === 'IdempotencyKeyClaimed' && event.streamId.endsWith(sha256(key)));
    return [...new Set(claims.map((event) => (event.data as { requestId: string }).requestId))];
  };
  const chargesOf = async (requestIds: string[]) => (await all()).filter((event) => event.type === 'CostPriced' && requestIds.includes((event.data as { requestId: string }).requestId)).length;
  const upstreamCalls = () => simulator.control.received((call) => call.path === '/v1/chat/completions').length;

  it('lets one of 10 concurrent duplicates sent to two replicas run: one upstream call, one charge', async () => {
    const callsBefore = upstreamCalls();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => post(replicas[i % 2].url, 'two-replicas-1')));
    const ran = answers.filter((answer) => answer.status === 200 && !answer.replayed);
    console.log(`two replicas, 10 duplicates: ${ran.length} ran, ${answers.filter((a) => a.replayed).length} replayed, ${answers.filter((a) => a.status === 409).length} answered 409`);
    expect(ran).toHaveLength(1);
    for (const answer of answers) expect(answer.status === 409 || (answer.status === 200 && answer.text === ran[0].text)).toBe(true);
    expect(upstreamCalls()).toBe(callsBefore + 1);
    const claimants = await claimantsOf('two-replicas-1');
    expect(claimants).toEqual([ran[0].requestId]);
    expect(await chargesOf(claimants)).toBe(1);
    // The other replica replays what the first recorded (they share the data directory).
    const other = replicas[(answers.indexOf(ran[0]) + 1) % 2];
    const replay = await retryUntilAnswered(() => post(other.url, 'two-replicas-1'));
    expect(replay.replayed).toBe(true);
    expect(replay.text).toBe(ran[0].text);
  });

  it('after a SIGKILL that follows the charge, a retry after restart is answered and the key carries one charge', async () => {
    const key = 'sigkill-1';
    const client = post(replicas[0].url, key).then((answer) => answer, () => null);
    const claimant = await until(async () => (await claimantsOf(key))[0]);
    await until(async () => (await events.readStream(requestStreamId(claimant))).some((event) => event.type === 'CostPriced'));
    const exit = await replicas[0].kill('SIGKILL');
    const first = await client;
    expect(exit.signal).toBe('SIGKILL');
    replicas[0] = await startGatewayProcess(env);
    const retry = await retryUntilAnswered(() => post(replicas[0].url, key));
    const claimants = await claimantsOf(key);
    console.log(`SIGKILL after the charge: first client ${first === null ? 'got no answer' : `got ${first.status}`}; retry ${retry.replayed ? 'replayed' : 'ran again'} (${retry.status}); claimants ${claimants.length}, CostPriced ${await chargesOf(claimants)}`);
    expect(retry.status).toBe(200);
    expect(await chargesOf(claimants)).toBe(1);
    if (!retry.replayed) {
      // Run again: its answer names the earlier request as the one carrying the key's charge.
      const recorded = await until(async () => (await all()).find((event) => event.type === 'IdempotentResponseRecorded' && (event.data as { requestId: string }).requestId === retry.requestId));
      expect((recorded.data as { chargedRequestId: string }).chargedRequestId).toBe(claimant);
    }
  });
});

/** Retries on 409 in use (as a client honouring Retry-After would, without sleeping its full value). */
async function retryUntilAnswered<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  for (const deadline = Date.now() + 60_000; ; ) {
    const answer = await send();
    if (answer.status !== 409 || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function until<T>(check: () => Promise<T | undefined | false>): Promise<T> {
  for (const deadline = Date.now() + 60_000; ; ) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function sha256(text: string): string {
  return require('node:crypto').createHash('sha256').update(text).digest('hex');
}
