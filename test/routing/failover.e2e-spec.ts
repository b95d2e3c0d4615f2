// Routing across deployments with real simulators as deployments (docs/routing.md): one killed under
// load, one slowed, all cold, a total outage, one charge per request and the cost of goods beside it.
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator';
import { addRoutedModel, COST, inParallel, MODEL } from './support/routed-model';
import { startTestGateway, type TestGateway } from '../support/test-gateway';
import { postChat, eventually } from '../chat/chat-test-helpers';
import { hashApiKey } from '../../src/access/key-hash';

const MANAGEMENT_KEY = 'mk-routing-test-0123456789abcdef0123456789abcdef';

const chatCalls = (sim: RunningSimulator) => sim.control.received((r) => r.path === '/v1/chat/completions' && r.model === MODEL).length;

describe('routing across deployments', () => {
  let sims: RunningSimulator[];
  let gw: TestGateway;

  beforeAll(async () => {
    sims = [await startSimulator(), await startSimulator(), await startSimulator()];
    gw = await startTestGateway({
      configure: (config) => {
        config.management_keys.push({ id: 'mgmt-routing', hash: hashApiKey(MANAGEMENT_KEY) });
        addRoutedModel(config, sims.map((sim) => sim.url), COST);
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    for (const sim of sims ?? []) await sim.close().catch(() => undefined);
  });
  beforeEach(async () => {
    sims.forEach((sim) => sim.control.reset());
    // Each test starts with every live deployment warm and none ejected (ejections last 5 s and more).
    const fleet = () => gw.gateway.runtime.upstream.router.fleetOf(gw.config.models.find((m) => m.id === MODEL)!);
    await eventually(async () => expect(fleet().all().map((s) => s.health.usable(Date.now()) && s.health.status === 'warm')).toEqual(sims.map(() => true)), 30_000);
  }, 40_000);

  const hi = (extra: Record<string, unknown> = {}) => ({ model: MODEL, messages: [{ role: 'user', content: 'hello there' }], ...extra });
  const attemptsOf = async (requestId: string) => (await gw.events('UpstreamAttemptRecorded')).filter((e) => (e.data as any).requestId === requestId).map((e) => e.data as any);

  it('charges each request once and records the cost of goods beside it, margin = price - cost to the micro', async () => {
    for (let i = 0; i < 6; i += 1) expect((await postChat(gw, hi())).status).toBe(200);
    const priced = (await gw.events('CostPriced')).filter((e) => (e.data as any).model === MODEL);
    expect(priced.length).toBe(6);
    for (const event of priced) {
      const charge = event.data as any;
      const attempts = await attemptsOf(charge.requestId);
      expect(attempts).toHaveLength(1);
      const [served] = attempts;
      expect(served).toMatchObject({ organizationId: gw.orgId, modelId: MODEL, attempt: 1, outcome: 'served', status: 200 });
      expect(served.deploymentId).toMatch(/^sim-[012]$/);
      // Worked out from the billed line items at the deployment's whole-micro unit costs.
      const expected = charge.lineItems.reduce((sum: bigint, item: any) => sum + BigInt(item.quantity) * unitCostMicros(item), 0n);
      expect(served.costOfGoodsUsdMicros).toBe(String(expected));
      console.log(`request ${charge.requestId}: price ${charge.costUsdMicros} micros, cost of goods ${served.costOfGoodsUsdMicros}, margin ${BigInt(charge.costUsdMicros) - expected}`);
    }
    // GET /v1/margins: revenue = the charges, cost of goods = the served attempts, margin = the difference, to the micro.
    const revenue = priced.reduce((sum, e) => sum + BigInt((e.data as any).costUsdMicros), 0n);
    const served = (await gw.events('UpstreamAttemptRecorded')).map((e) => e.data as any).filter((a) => a.modelId === MODEL && a.outcome === 'served');
    const cost = served.reduce((sum, a) => sum + BigInt(a.costOfGoodsUsdMicros), 0n);
    const day = Math.floor(Date.now() / 86_400_000) * 86_400;
    for (const groupBy of ['model', 'deployment']) {
      const res = await fetch(`${gw.baseUrl}/v1/margins?start_time=${day}&group_by=${groupBy}`, { headers: { authorization: `Bearer ${MANAGEMENT_KEY}` } });
      expect(res.status).toBe(200);
      const rows = ((await res.json()) as any).data.flatMap((b: any) => b.results).filter((r: any) => r.model === MODEL);
      const total = (field: string) => rows.reduce((sum: bigint, r: any) => sum + BigInt(r[field]), 0n);
      expect([total('revenue_usd_micros'), total('cost_of_goods_usd_micros'), total('margin_usd_micros')]).toEqual([revenue, cost, revenue - cost]);
      console.log(`margins by ${groupBy}: ${JSON.stringify(rows)}`);
    }
    const refused = await fetch(`${gw.baseUrl}/v1/margins?start_time=${day}`, { headers: { authorization: `Bearer ${gw.apiKey}` } });
    expect(refused.status).toBe(403);
    // The attempt went in the charge's append: the request's events are one contiguous run in the store.
    const all = await gw.events();
    const requestId = (priced[0].data as any).requestId;
    const positions = all.map((e, i) => ((e.data as any)?.requestId === requestId ? i : -1)).filter((i) => i >= 0);
    expect(positions.map((i) => all[i].type).filter((t) => t !== 'RequestAdmitted')).toEqual(['UsageMeasured', 'CostPriced', 'UpstreamAttemptRecorded']);
    const charge = positions.filter((i) => all[i].type !== 'RequestAdmitted');
    expect(charge[2] - charge[0]).toBe(2);
  });

  it('fails over before the first byte: a deployment answering 5xx costs the client nothing', async () => {
    sims[0].control.set(MODEL, { kind: 'fail', status: 500 });
    sims[1].control.set(MODEL, { kind: 'fail', status: 502 });
    const res = await postChat(gw, hi());
    expect(res.status).toBe(200);
    const attempts = await attemptsOf(res.headers.get('x-request-id')!);
    expect(attempts.at(-1)).toMatchObject({ outcome: 'served', deploymentId: 'sim-2', costOfGoodsUsdMicros: expect.stringMatching(/^\d+$/) });
    // Failed attempts are recorded, never charged: one CostPriced for the request.
    expect(attempts.slice(0, -1).every((a) => a.outcome === 'upstream_5xx' && a.costOfGoodsUsdMicros === null)).toBe(true);
    expect((await gw.events('CostPriced')).filter((e) => (e.data as any).requestId === res.headers.get('x-request-id'))).toHaveLength(1);
    expect(chatCalls(sims[2])).toBe(1);
  });

  it('keeps retries of a total outage within the budget', async () => {
    sims.forEach((sim) => sim.control.set(MODEL, { kind: 'fail', status: 500 }));
    const budget = gw.gateway.runtime.upstream.router.fleetOf(gw.config.models.find((m) => m.id === MODEL)!).budget;
    const earlier = budget.used(Date.now()).requests;
    const startedAt = Date.now();
    const requests = 30;
    for (let i = 0; i < requests; i += 1) expect((await postChat(gw, hi())).status).toBe(502);
    const seconds = Math.ceil((Date.now() - startedAt) / 1000) + 1;
    const attempts = sims.reduce((sum, sim) => sum + chatCalls(sim), 0);
    console.log(`total outage: ${requests} requests, ${attempts} attempts (${(attempts / requests).toFixed(2)} per request) over ${seconds} s`);
    // Retries: within 20% of the model's requests of the last 10 s (earlier tests' included), plus 3 a second.
    expect(attempts - requests).toBeLessThanOrEqual(Math.ceil(0.2 * (earlier + requests)) + 3 * seconds);
    expect(attempts).toBeLessThan(requests * 3);
    // A request that failed on every attempt has its attempts recorded on their own, and no charge.
    const failedIds = new Set<string>();
    await eventually(async () => {
      const recorded = (await gw.events('UpstreamAttemptRecorded')).map((e) => e.data as any).filter((a) => a.modelId === MODEL && a.outcome === 'upstream_5xx' && a.occurredAt >= new Date(startedAt).toISOString());
      recorded.forEach((a) => failedIds.add(a.requestId));
      expect(recorded.length).toBe(attempts);
    }, 10_000);
    const charged = (await gw.events('CostPriced')).filter((e) => failedIds.has((e.data as any).requestId));
    expect([failedIds.size, charged.length]).toEqual([requests, 0]);
    // Metrics per deployment: attempts by outcome, retries, an ejection, the budget used.
    const metrics = await (await fetch(`${gw.baseUrl}/metrics`)).text();
    const sample = (line: string) => Number(new RegExp(`^${line.replace(/[{}"]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);
    const failedAttempts = sims.reduce((sum, _sim, i) => sum + (sample(`gateway_deployment_attempts_total{model="${MODEL}",deployment="sim-${i}",outcome="upstream_5xx"}`) || 0), 0);
    expect(failedAttempts).toBeGreaterThanOrEqual(attempts);
    expect(sample(`gateway_deployment_retries_total{model="${MODEL}"}`)).toBeGreaterThanOrEqual(attempts - requests);
    expect(metrics).toMatch(new RegExp(`gateway_deployment_ejections_total\\{model="${MODEL}",deployment="sim-\\d"\\} [1-9]`));
    expect(metrics).toMatch(new RegExp(`gateway_retry_budget_used_ratio\\{model="${MODEL}"\\} `));
    sims.forEach((sim) => sim.control.reset());
  }, 60_000);

  it('moves traffic off a slowed deployment', async () => {
    sims[2].control.set(MODEL, { kind: 'stall', ms: 400 });
    const total = 60;
    await inParallel(total, 3, async () => expect((await postChat(gw, hi())).status).toBe(200));
    const shares = sims.map(chatCalls);
    console.log(`slowed deployment sim-2: traffic shares ${shares.map((n) => `${((100 * n) / total).toFixed(0)}%`).join(' / ')} of ${total}`);
    expect(shares[2]).toBeLessThan(total / 6);
  }, 60_000);

  it('answers 503 with Retry-After when every deployment is cold', async () => {
    sims.forEach((sim) => sim.control.set(MODEL, { kind: 'cold', retryAfterSeconds: 9 }));
    const res = await postChat(gw, hi());
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('model_cold');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    sims.forEach((sim) => sim.control.reset());
    // Warm again once a deployment answers.
    await eventually(async () => expect((await postChat(gw, hi())).status).toBe(200), 30_000);
  }, 40_000);

  it('never retries a stream after its first chunk: it ends with an error event and is billed for what was sent', async () => {
    sims.forEach((sim) => sim.control.set(MODEL, { kind: 'quirk', name: 'stream_error' }));
    const res = await fetch(`${gw.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(hi({ stream: true })),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('Simulated answer'.split(' ')[0]);
    expect(text).toMatch(/failed mid-stream/);
    expect(sims.reduce((sum, sim) => sum + chatCalls(sim), 0)).toBe(1);
    const requestId = res.headers.get('x-request-id')!;
    await eventually(async () => expect((await gw.events('CostPriced')).filter((e) => (e.data as any).requestId === requestId)).toHaveLength(1));
    expect((await attemptsOf(requestId)).map((a) => a.outcome)).toEqual(['served']);
  });

  it('keeps a deployment warm through failed probes below the threshold, and the model warm while one deployment is', async () => {
    const model = gw.config.models.find((m) => m.id === MODEL)!;
    const health = () => gw.gateway.runtime.upstream.router.fleetOf(model).state('sim-0').health.status;
    const probes = () => sims[0].control.received((r) => r.path === '/health').length;
    sims[0].control.set('probe-0', { kind: 'fail', status: 500 });
    const before = probes();
    await eventually(async () => expect(probes()).toBeGreaterThanOrEqual(before + 2), 20_000);
    // Two failed probes in a row (the third may be on its way): not yet cold.
    if (probes() < before + 3) expect(health()).not.toBe('cold');
    await eventually(async () => expect(health()).toBe('cold'), 20_000);
    expect(gw.gateway.runtime.modelStatus.publicStatus(MODEL)).toBe('warm');
    expect((await postChat(gw, hi())).status).toBe(200);
  }, 60_000);

  it('loses no non-streamed request when a deployment is killed under load', async () => {
    const total = 60;
    let done = 0;
    let killed = false;
    const statuses: number[] = [];
    await inParallel(total, 6, async () => {
      const res = await postChat(gw, hi());
      statuses.push(res.status);
      done += 1;
      if (done === 15 && !killed) {
        killed = true;
        sims[1].app.server.closeAllConnections();
        void sims[1].app.close();
        sims[1].app.server.closeAllConnections();
      }
    });
    const failed = statuses.filter((s) => s !== 200).length;
    console.log(`killed sim-1 after 15 of ${total}: ${failed} failed, per deployment ${sims.map(chatCalls).join(' / ')}`);
    expect(failed).toBe(0);
  }, 60_000);
});

function unitCostMicros(item: { side: string; modality: string; unit: string }): bigint {
  const book = item.side === 'request' ? COST.request : (COST as any)[item.side]?.[item.modality]?.[item.unit];
  if (typeof book !== 'string') throw new Error(`no cost for ${JSON.stringify(item)}`);
  return BigInt(Math.round(Number(book) * 1_000_000));
}
