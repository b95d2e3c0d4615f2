// Start-up over a store that already holds history: the gateway listens while its projections catch
// up (one pass from the oldest checkpoint), /healthz answers at once, /readyz and the model endpoints
// answer 503 until every projection is at the head, and a restart with the persisted read models
// resumes from their checkpoints instead of the beginning. The catch-up is held at a gate the test
// opens, so nothing here depends on how fast it runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { DelegatingEventStore } from '../../src/event-store/delegating-event-store';
import { comparePositions, type RecordedEvent } from '../../src/event-store/event-store.port';
import { DEMO_ORGANIZATION } from '../../src/embedded-default';
import { generateBilledStore } from '../../bench/startup/billed-store';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

const REQUESTS = 3000;

/** Holds every readAll until `open()`; records where each asked to read from. */
class GatedStore extends DelegatingEventStore {
  readonly readsFrom: (string | null)[] = [];
  private release!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.release = resolve));

  open(): void {
    this.release();
  }

  async readAll(options: { after: string | null; maxCount: number }): Promise<RecordedEvent[]> {
    this.readsFrom.push(options.after);
    await this.opened;
    return super.readAll(options);
  }
}

async function waitForReady(baseUrl: string): Promise<Record<string, any>> {
  for (;;) {
    const response = await fetch(`${baseUrl}/readyz`);
    if (response.status === 200) return (await response.json()) as Record<string, any>;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const chat = (gw: TestGateway) => gw.postJson('/v1/chat/completions', { model: 'aria', messages: [{ role: 'user', content: 'hello' }], max_completion_tokens: 16 });

describe('start-up over a store with history', () => {
  jest.setTimeout(120_000);
  let dataDir: string;
  let generatedHead: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gw-startup-'));
    await generateBilledStore(dataDir, REQUESTS, DEMO_ORGANIZATION);
    const store = await SqliteEventStore.open(dataDir);
    generatedHead = (await store.headPosition())!;
    await store.close();
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function startGated(): Promise<{ gw: TestGateway; store: GatedStore }> {
    let store!: GatedStore;
    const gw = await startTestGateway({
      dataDir,
      overrides: async (dir) => ({ eventStore: (store = new GatedStore(await SqliteEventStore.open(dir))), catchUpInBackground: true }),
    });
    return { gw, store };
  }

  it('answers /healthz while catching up, refuses /readyz and model requests with 503 until at the head, then serves', async () => {
    const { gw, store } = await startGated();
    try {
      expect((await fetch(`${gw.baseUrl}/healthz`)).status).toBe(200);
      const notReady = await fetch(`${gw.baseUrl}/readyz`);
      expect(notReady.status).toBe(503);
      const body = (await notReady.json()) as Record<string, any>;
      expect(body.checks.projections).toBe(false);
      expect(body.details.projections.catchingUp).toEqual({ applied: 0, head: generatedHead, position: null });
      const refused = await chat(gw);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(((await refused.json()) as any).error).toMatchObject({ code: 'starting_up', type: 'service_unavailable' });
      // From nothing: one pass from the beginning for every projection.
      expect(store.readsFrom[0]).toBeNull();

      store.open();
      const ready = await waitForReady(gw.baseUrl);
      expect(ready.details.projections.catchingUp).toBeUndefined();
      // Ready means caught up: the budget ledger holds every generated charge, to the micro.
      const spend = gw.gateway.runtime.budgets.spentIn('organization', DEMO_ORGANIZATION, null, Date.now());
      const priced = await gw.events('CostPriced');
      expect(priced).toHaveLength(REQUESTS);
      expect(spend.settledUsdMicros).toBe(priced.reduce((sum, event) => sum + BigInt((event.data as any).costUsdMicros ?? 0), 0n));
      const served = await chat(gw);
      expect(served.status).toBe(200);
      // The refused request left nothing behind: the one admitted request is the one served.
      expect(await gw.events('RequestAdmitted')).toHaveLength(1);
    } finally {
      await gw.close();
    }
  });

  it('after a restart with persisted read models, resumes every projection from its checkpoint, not the beginning', async () => {
    const before = await SqliteEventStore.open(dataDir);
    const headAtStop = (await before.headPosition())!;
    const pricedBefore = (await before.readAll({ after: null, maxCount: 100_000 })).filter((event) => event.type === 'CostPriced');
    await before.close();
    expect(pricedBefore).toHaveLength(REQUESTS + 1);
    const { gw, store } = await startGated();
    try {
      const resumedFrom = store.readsFrom[0];
      expect(resumedFrom).not.toBeNull();
      expect(comparePositions(resumedFrom!, generatedHead)).toBeGreaterThan(0);
      expect(comparePositions(resumedFrom!, headAtStop)).toBeLessThanOrEqual(0);
      store.open();
      await waitForReady(gw.baseUrl);
      // The budget ledger came back from its snapshot with every settled charge, none counted twice.
      const spend = gw.gateway.runtime.budgets.spentIn('organization', DEMO_ORGANIZATION, null, Date.now());
      expect(spend.settledUsdMicros).toBe(pricedBefore.reduce((sum, event) => sum + BigInt((event.data as any).costUsdMicros ?? 0), 0n));
      expect((await chat(gw)).status).toBe(200);
    } finally {
      await gw.close();
    }
  });
});
