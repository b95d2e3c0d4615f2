// A store holding a CostPriced the daily cost fold rejects (2^53 + 2 micros) used to make the gateway
// exit 1 on every start, answer 500 to every cost query and stay unready. Now the event is parked:
// the gateway starts, serves costs, and /readyz names the parked event until an operator acknowledges it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestGateway, type TestGateway } from '../support/test-gateway';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { appendCostPriced, costPriced, lineItem } from '../support/projection-test-events';
import { DEMO_ORGANIZATION } from '../../src/embedded-default';
import { runLedgerCheck } from '../../src/costs/cli/ledger-check.cli';

const DAY0 = Date.UTC(2026, 9, 1) / 1000;

interface Readiness {
  status: string;
  checks: Record<string, boolean>;
  details: { projections: { startedUp: boolean; stuck: Record<string, string>; parked: Record<string, number> } };
}

async function readiness(gw: TestGateway): Promise<{ status: number; body: Readiness }> {
  const res = await fetch(`${gw.baseUrl}/readyz`);
  return { status: res.status, body: (await res.json()) as Readiness };
}

/** The model prober answers within a moment of start-up; readiness is polled, never a cost query. */
async function readinessWhen(gw: TestGateway, settled: (r: Readiness) => boolean, timeoutMs = 10_000): Promise<{ status: number; body: Readiness }> {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const result = await readiness(gw);
    if (settled(result.body) || Date.now() > deadline) return result;
  }
}

describe('a poisoned ledger', () => {
  jest.setTimeout(120_000);
  let dataDir: string;
  let gw: TestGateway | null = null;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'gw-poisoned-'));
  });

  afterEach(async () => {
    await gw?.close();
    gw = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is ready after start-up catch-up without any cost query', async () => {
    gw = await startTestGateway({ dataDir });
    const { status, body } = await readinessWhen(gw, (r) => r.status === 'ready');
    console.log(`fresh gateway /readyz -> ${status} ${JSON.stringify(body.checks)}`);
    expect(status).toBe(200);
    expect(body.checks.cost_projection).toBe(true);
    expect(body.details.projections).toEqual({ startedUp: true, stuck: {}, parked: {} });
  });

  it('starts on a store with an oversized CostPriced, serves costs, and is unready until the parked event is acknowledged', async () => {
    const store = await SqliteEventStore.open(dataDir);
    const at = new Date((DAY0 + 3600) * 1000).toISOString();
    await appendCostPriced(store, costPriced('good-1', DEMO_ORGANIZATION, at, [lineItem('aria, input text tokens', 250, '1')]));
    await appendCostPriced(store, { ...costPriced('poison', DEMO_ORGANIZATION, at, []), costUsdMicros: 2 ** 53 + 2 });
    await appendCostPriced(store, costPriced('good-2', DEMO_ORGANIZATION, at, [lineItem('aria, input text tokens', 3, '1')]));
    await store.close();

    gw = await startTestGateway({ dataDir });
    const parked = await readinessWhen(gw, (r) => r.checks.model_status !== false);
    console.log(`/readyz with a parked event -> ${parked.status} ${JSON.stringify(parked.body.details.projections)}`);
    expect(parked.status).toBe(503);
    expect(parked.body.checks).toMatchObject({ projections: false, cost_projection: true, event_store: true });
    expect(parked.body.details.projections.parked).toEqual({ 'daily-cost': 1 });

    const costs = await fetch(`${gw.baseUrl}/v1/organization/costs?start_time=${DAY0}&end_time=${DAY0 + 86_400}`, { headers: { authorization: `Bearer ${gw.apiKey}` } });
    const page = (await costs.json()) as { data: { results: { amount: { value: number } }[] }[] };
    console.log(`GET /v1/organization/costs -> ${costs.status}, day total ${page.data[0].results[0].amount.value} USD (the two good events)`);
    expect(costs.status).toBe(200);
    expect(page.data[0].results[0].amount.value).toBe(0.000253);

    const lines: string[] = [];
    // The prober keeps appending ModelStatusChanged; the grace lets the live read model reach each new head.
    const env = { GATEWAY_DATA_DIR: dataDir, LEDGER_CHECK_GRACE_MS: '5000' };
    expect(await runLedgerCheck(env, (line) => lines.push(line), [])).toBe(1);
    expect(lines.join('\n')).toContain('PARKED CostPriced');
    expect(await runLedgerCheck(env, (line) => lines.push(line), ['--acknowledge-parked=all'])).toBe(0);

    const acknowledged = await readinessWhen(gw, (r) => r.status === 'ready');
    console.log(`/readyz after acknowledging -> ${acknowledged.status}`);
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.body.details.projections.parked).toEqual({});
  });
});
