// The router's pure parts: health thresholds, ejection with back-off and the half rule, the retry
// budget at and past its edges, the picker's weights, load and latency, and cost of goods to the micro.
import { DeploymentHealth } from './deployment-health';
import { RetryBudget } from './retry-budget';
import { pickDeployment, type Candidate } from './pick-deployment';
import { DeploymentFleet } from './deployment-fleet';
import { LatencyEwma } from './latency-ewma';
import { costOfGoodsMicros } from './cost-of-goods';
import { AttemptLog } from './attempt-log';
import { eventIdFor } from '../event-store/event-ids';
import type { DeploymentConfig } from '../catalog/catalog.types';
import { emptyInputUsage, emptyOutputUsage } from '../billing/usage';
import { fixtureModel } from '../../test/support/catalog-model.fixture';

const deployment = (id: string, extra: Partial<DeploymentConfig> = {}): DeploymentConfig => ({
  id, base_url: `http://127.0.0.1:1/${id}`, timeout_ms: 1000, cold_start_seconds: 5, weight: 1, ...extra,
});

describe('deployment health', () => {
  it('goes cold after 3 failed probes in a row and warm after 2 good ones; the first probe decides', () => {
    const health = new DeploymentHealth();
    expect(health.probed(true)).toBe('warm');
    expect(health.probed(false)).toBe('warm');
    expect(health.probed(false)).toBe('warm');
    expect(health.probed(true)).toBe('warm'); // a good probe resets the run
    expect([health.probed(false), health.probed(false), health.probed(false)]).toEqual(['warm', 'warm', 'cold']);
    expect(health.probed(true)).toBe('cold');
    expect(health.probed(true)).toBe('warm');
    expect(new DeploymentHealth().probed(false)).toBe('cold');
  });

  it('ejects after 3 failed requests with a doubling back-off, and a served request resets it', () => {
    const health = new DeploymentHealth();
    expect([health.failed(), health.failed(), health.failed()]).toEqual([false, false, true]);
    expect(health.eject(0)).toBe(5_000);
    expect(health.isEjected(4_999)).toBe(true);
    expect(health.isEjected(5_000)).toBe(false);
    expect(health.eject(5_000)).toBe(10_000);
    expect(health.eject(15_000)).toBe(20_000);
    health.recovered(40_000);
    health.served();
    expect(health.eject(40_000)).toBe(5_000);
    const capped = new DeploymentHealth();
    for (let i = 0; i < 20; i += 1) capped.eject(0);
    expect(capped.eject(0)).toBe(300_000);
  });
});

describe('a fleet of deployments', () => {
  it('is warm while any deployment is warm and cold only when all are', () => {
    const fleet = new DeploymentFleet([deployment('a'), deployment('b')]);
    expect(fleet.modelStatus()).toBe('unknown');
    fleet.probed('a', true, 'ok', 0);
    fleet.probed('b', false, 'down', 0);
    expect(fleet.modelStatus()).toBe('warm');
    fleet.saidCold('a', 0);
    expect(fleet.modelStatus()).toBe('cold');
  });

  it('never ejects more than half of a model\'s deployments, and never the only one', () => {
    const fleet = new DeploymentFleet([deployment('a'), deployment('b'), deployment('c'), deployment('d')]);
    const failThrice = (id: string) => [fleet.failed(id, 0), fleet.failed(id, 0), fleet.failed(id, 0)][2];
    expect(failThrice('a')).toMatchObject({ deploymentId: 'a', status: 'ejected', previous: null });
    expect(failThrice('b')).toMatchObject({ deploymentId: 'b', status: 'ejected' });
    expect(failThrice('c')).toBeNull();
    expect(fleet.state('c').health.isEjected(0)).toBe(false);
    const single = new DeploymentFleet([deployment('only')]);
    expect([single.failed('only', 0), single.failed('only', 0), single.failed('only', 0)]).toEqual([null, null, null]);
  });

  it('reports a status change once, not on every observation', () => {
    const fleet = new DeploymentFleet([deployment('a'), deployment('b')]);
    expect(fleet.probed('a', true, 'ok', 0)).toMatchObject({ status: 'warm', previous: null });
    expect(fleet.probed('a', true, 'ok', 0)).toBeNull();
    expect(fleet.probed('a', false, 'no', 0)).toBeNull(); // one failed probe is not a change
    expect(fleet.served('a', 10, 0)).toBeNull();
  });
});

describe('the retry budget', () => {
  it('allows 3 retries a second however few the requests', () => {
    const budget = new RetryBudget();
    budget.requestStarted(0);
    expect([budget.tryRetry(0), budget.tryRetry(100), budget.tryRetry(200), budget.tryRetry(300)]).toEqual([true, true, true, false]);
    expect(budget.tryRetry(1_000)).toBe(true);
  });

  it('allows retries up to 20% of the requests of the last 10 s', () => {
    const budget = new RetryBudget({ ratio: 0.2, windowMs: 10_000, minPerSecond: 0 });
    for (let i = 0; i < 100; i += 1) budget.requestStarted(i * 10);
    let granted = 0;
    for (let i = 0; i < 50; i += 1) if (budget.tryRetry(2_000)) granted += 1;
    expect(granted).toBe(20);
    expect(budget.used(2_000)).toEqual({ retries: 20, requests: 100 });
    // Second 0 left the window: its requests no longer pay for retries, while the retries of second 2 still count.
    expect(budget.tryRetry(10_000)).toBe(false);
    expect(budget.used(10_000)).toEqual({ retries: 20, requests: 0 });
    budget.requestStarted(12_000);
    expect(budget.used(12_000)).toEqual({ retries: 0, requests: 1 });
  });
});

describe('picking a deployment', () => {
  const candidate = (id: string, extra: Partial<Candidate> = {}): Candidate => ({ id, weight: 1, inFlight: 0, maxConcurrency: null, usable: true, cold: false, ewmaMs: 10, ...extra });
  const sequence = (values: number[]) => () => values.shift() ?? 0;

  it('skips cold, capped and already tried deployments, and says why none is left', () => {
    expect(pickDeployment([candidate('a', { usable: false, cold: true }), candidate('b')], new Set())).toEqual({ id: 'b' });
    expect(pickDeployment([candidate('a', { inFlight: 2, maxConcurrency: 2 }), candidate('b', { inFlight: 1, maxConcurrency: 2 })], new Set())).toEqual({ id: 'b' });
    expect(pickDeployment([candidate('a'), candidate('b')], new Set(['a']))).toEqual({ id: 'b' });
    expect(pickDeployment([candidate('a'), candidate('b')], new Set(['a', 'b']))).toEqual({ none: 'exhausted' });
    expect(pickDeployment([candidate('a', { usable: false, cold: true }), candidate('b', { usable: false, cold: true })], new Set())).toEqual({ none: 'cold' });
    expect(pickDeployment([candidate('a', { inFlight: 2, maxConcurrency: 2 })], new Set())).toEqual({ none: 'overloaded' });
    // Only ejected ones left: one is still tried.
    expect(pickDeployment([candidate('a', { usable: false })], new Set())).toEqual({ id: 'a' });
  });

  it('prefers, of the two drawn, fewer in flight and the faster time to first byte', () => {
    expect(pickDeployment([candidate('a', { inFlight: 3 }), candidate('b', { inFlight: 1 })], new Set(), sequence([0, 0]))).toEqual({ id: 'b' });
    expect(pickDeployment([candidate('a', { ewmaMs: 200 }), candidate('b', { ewmaMs: 20 })], new Set(), sequence([0, 0]))).toEqual({ id: 'b' });
    // 2 in flight at 20 ms (score 60) still beats 0 in flight at 200 ms (score 200).
    expect(pickDeployment([candidate('a', { ewmaMs: 200 }), candidate('b', { ewmaMs: 20, inFlight: 2 })], new Set(), sequence([0, 0]))).toEqual({ id: 'b' });
    // No fresh figure: scored as the fastest, so it is tried.
    expect(pickDeployment([candidate('a', { ewmaMs: 50 }), candidate('b', { ewmaMs: null })], new Set(), sequence([0, 0]))).toEqual({ id: 'b' });
  });

  it('draws in proportion to weight', () => {
    const counts = { a: 0, b: 0, c: 0 };
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const fleet = [candidate('a', { weight: 3 }), candidate('b'), candidate('c')];
    for (let i = 0; i < 10_000; i += 1) {
      // Equal scores: the first drawn wins, so the share follows the weights.
      const pick = pickDeployment(fleet, new Set(), random) as { id: 'a' | 'b' | 'c' };
      counts[pick.id] += 1;
    }
    console.log('picks by weight 3:1:1 over 10000 draws', counts);
    expect(counts.a).toBeGreaterThan(5_500);
    expect(counts.a).toBeLessThan(6_500);
  });
});

describe('latency EWMA', () => {
  it('moves 30% toward each sample and forgets after 10 s without one', () => {
    const ewma = new LatencyEwma();
    ewma.add(100, 0);
    ewma.add(200, 1);
    expect(ewma.current(1)).toBeCloseTo(130);
    expect(ewma.current(10_001)).toBeCloseTo(130);
    expect(ewma.current(10_002)).toBeNull();
  });
});

describe('cost of goods', () => {
  it('prices the billed usage at the deployment\'s cost, exactly, and is unknown without one', () => {
    const model = fixtureModel();
    const usage = { input: emptyInputUsage(), output: emptyOutputUsage() };
    usage.input.text.tokens = 1_000;
    usage.output.text.tokens = 500;
    const cost = { input: { text: { tokens: '0.0000004' } }, output: { text: { tokens: '0.0000011' } } };
    // 1000 x 0.4 + 500 x 1.1 micros = 950 micros
    expect(costOfGoodsMicros(model, deployment('a', { cost }), usage)).toBe('950');
    expect(costOfGoodsMicros(model, deployment('b'), usage)).toBeNull();
  });
});

describe('a model of one deployment', () => {
  it('picks it unless tried, cold or at its cap (never ejected: it is the only one)', () => {
    const fleet = new DeploymentFleet([deployment('only', { max_concurrency: 1 })]);
    expect(fleet.pick(new Set(), 0)).toEqual({ id: 'only' });
    expect(fleet.pick(new Set(['only']), 0)).toEqual({ none: 'exhausted' });
    fleet.state('only').inFlight = 1;
    expect(fleet.pick(new Set(), 0)).toEqual({ none: 'overloaded' });
    fleet.state('only').inFlight = 0;
    fleet.saidCold('only', 0);
    expect(fleet.pick(new Set(), 0)).toEqual({ none: 'cold' });
  });
});

describe('the attempt log', () => {
  it('gives the cost of goods to the last served attempt only, numbers attempts from 1 and forgets old requests', () => {
    const log = new AttemptLog();
    const cost = { input: { text: { tokens: '0.000001' } }, output: { text: { tokens: '0.000001' } } };
    const at = (d: DeploymentConfig, outcome: 'served' | 'timeout') => ({ deployment: d, outcome, status: outcome === 'served' ? 200 : null, timeToFirstByteMs: 5, occurredAt: '2026-11-28T00:00:00.000Z' });
    log.add('r1', 'org-a', 'm', at(deployment('a', { cost }), 'timeout'), 0);
    log.add('r1', 'org-a', 'm', at(deployment('b', { cost }), 'served'), 0);
    log.add('r1', 'org-a', 'm', at(deployment('c', { cost }), 'served'), 0);
    const usage = { input: emptyInputUsage(), output: emptyOutputUsage() };
    usage.input.text.tokens = 3;
    const events = log.take('r1', fixtureModel(), usage);
    expect(events.map((e) => [(e.data as any).attempt, (e.data as any).deploymentId, (e.data as any).costOfGoodsUsdMicros])).toEqual([[1, 'a', null], [2, 'b', null], [3, 'c', '3']]);
    expect(events.map((e) => e.id)).toEqual([eventIdFor('r1', 'upstream-attempt:1'), eventIdFor('r1', 'upstream-attempt:2'), eventIdFor('r1', 'upstream-attempt:3')]);
    log.add('old', 'org-a', 'm', at(deployment('a'), 'served'), 0);
    log.add('new', 'org-a', 'm', at(deployment('a'), 'served'), 15 * 60_000 + 1);
    expect(log.size()).toBe(1);
  });
});
