// BillingService's charge lifecycle, with fakes: what is appended, when a delivered stream's usage goes
// to the spool instead, when the client gets a 503, how disputes and budget thresholds ride along.
import { fixtureModel } from '../../test/support/catalog-model.fixture';
import { ApiError } from '../common/api-error';
import { eventIdFor, requestStreamId } from '../event-store/event-ids';
import type { AppendResult, EventStore, NewEvent } from '../event-store/event-store.port';
import type { BudgetHolds } from '../budgets/budget-holds';
import { BillingService, type BillingObserver, type ChargeInput, type UsageSpool } from './billing.service';
import type { DisputedField } from './metering/plausibility';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const caller = { keyId: 'key-1', organizationId: 'org-acme', organization: { id: 'org-acme' }, limits: { key: null, organization: null } } as unknown as ChargeInput['ctx']['caller'];
const ctx = { requestId: 'req-1', correlationId: 'client-1', caller };
const chat = (overrides: Partial<ChargeInput> = {}): ChargeInput => ({
  ctx,
  model: fixtureModel(),
  endpoint: '/v1/chat/completions',
  measurement: { upstream: { promptTokens: 100, completionTokens: 50 }, input: {}, output: {} },
  ...overrides,
});

class FakeStore {
  readonly appended: { streamId: string; events: NewEvent[] }[] = [];
  failing: Error | null = null;

  async append(streamId: string, events: NewEvent[]): Promise<AppendResult> {
    if (this.failing) throw this.failing;
    this.appended.push({ streamId, events });
    return { nextExpectedRevision: events.length - 1, position: String(this.appended.length) };
  }
}

class FakeSpool implements UsageSpool {
  readonly kept: { streamId: string; events: NewEvent[] }[] = [];
  failing = false;

  async keep(streamId: string, events: NewEvent[]): Promise<void> {
    if (this.failing) throw new Error('spool disk full');
    this.kept.push({ streamId, events });
  }
}

class RecordingObserver implements BillingObserver {
  readonly charges: { modelId: string; endpoint: string; cost: number | null; disputed: boolean }[] = [];
  appends = 0;
  charged(modelId: string, endpoint: string, cost: number | null, disputed: boolean): void {
    this.charges.push({ modelId, endpoint, cost, disputed });
  }
  appended(): void {
    this.appends++;
  }
}

function billingWith(parts: { budgets?: Partial<BudgetHolds> } = {}) {
  const store = new FakeStore();
  const spool = new FakeSpool();
  const observer = new RecordingObserver();
  const billing = new BillingService(store as unknown as EventStore, 'prices-2026-11', () => NOW, spool, observer, (parts.budgets ?? null) as BudgetHolds | null);
  return { billing, store, spool, observer };
}

const typesOf = (events: NewEvent[]) => events.map((event) => event.type);

describe('charging a request', () => {
  it('given a store that takes the append, then UsageMeasured and CostPriced go on the request stream, with ids from the request, before the usage is returned', async () => {
    const { billing, store, spool, observer } = billingWith();

    const usage = await billing.charge(chat());

    expect(store.appended).toHaveLength(1);
    const [{ streamId, events }] = store.appended;
    expect(streamId).toBe(requestStreamId('req-1'));
    expect(typesOf(events)).toEqual(['UsageMeasured', 'CostPriced']);
    expect(events.map((event) => event.id)).toEqual([eventIdFor('req-1', 'UsageMeasured'), eventIdFor('req-1', 'CostPriced')]);
    const costPriced = events[1].data as { costUsdMicros: number; priceBookVersion: string; occurredAt: string };
    expect(costPriced).toMatchObject({ priceBookVersion: 'prices-2026-11', occurredAt: NOW.toISOString() });
    expect(usage.cost_usd_micros).toBe(costPriced.costUsdMicros);
    expect(spool.kept).toEqual([]);
    expect(observer.charges).toEqual([{ modelId: 'symphony-notes', endpoint: '/v1/chat/completions', cost: costPriced.costUsdMicros, disputed: false }]);
    expect(observer.appends).toBe(1);
  });

  it('given the append fails before anything was delivered, then the client gets 503 billing_unavailable and nothing is spooled or counted', async () => {
    const { billing, store, spool, observer } = billingWith();
    store.failing = new Error('store down');

    const failure = await billing.charge(chat()).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 503, code: 'billing_unavailable' });
    expect(spool.kept).toEqual([]);
    expect(observer.charges).toEqual([]);
  });

  it('given the append fails after a stream was delivered, then the same events go to the spool and the charge stands', async () => {
    const { billing, store, spool, observer } = billingWith();
    store.failing = new Error('store down');

    const usage = await billing.charge(chat({ delivered: true }));

    expect(spool.kept).toHaveLength(1);
    expect(spool.kept[0].streamId).toBe(requestStreamId('req-1'));
    expect(spool.kept[0].events.map((event) => event.id)).toEqual([eventIdFor('req-1', 'UsageMeasured'), eventIdFor('req-1', 'CostPriced')]);
    expect(usage.cost_usd_micros).not.toBeNull();
    expect(observer.charges).toHaveLength(1);
  });

  it('given the spool fails too, then the client gets 503 and nothing is counted as charged', async () => {
    const { billing, store, spool, observer } = billingWith();
    store.failing = new Error('store down');
    spool.failing = true;

    await expect(billing.charge(chat({ delivered: true }))).rejects.toMatchObject({ status: 503, code: 'billing_unavailable' });
    expect(observer.charges).toEqual([]);
  });
});

describe('disputed usage', () => {
  it('given a report beyond the plausibility bounds, then the bounded value is billed and a UsageDisputed goes in the same append', async () => {
    const { billing, store, observer } = billingWith();

    const usage = await billing.charge(chat({ measurement: { upstream: { promptTokens: 100, completionTokens: 5_000 }, input: {}, output: {}, limits: { completionCap: 10 } } }));

    const [{ events }] = store.appended;
    expect(typesOf(events)).toEqual(['UsageMeasured', 'CostPriced', 'UsageDisputed']);
    const disputed = events[2].data as { severity: string; disputes: DisputedField[] };
    const completion = disputed.disputes.find((entry) => entry.field === 'completion_tokens')!;
    expect(completion).toMatchObject({ reported: '5000', reason: 'over_completion_cap' });
    expect(completion.billed).toBeLessThan(5_000);
    expect(usage.output.text.tokens + usage.output.text.reasoning_tokens).toBe(completion.billed);
    expect(observer.charges[0].disputed).toBe(disputed.severity === 'hard');
  });

  it('given output the handler counted and billed at a bound, then its disputes are recorded with the charge', async () => {
    const { billing, store } = billingWith();
    const counted: DisputedField = { field: 'output_audio_seconds', reported: '90', billed: 60, bound: '<= 60', reason: 'over_completion_cap', severity: 'hard' };

    await billing.charge(chat({ disputes: [counted] }));

    const [{ events }] = store.appended;
    expect(events[2]).toMatchObject({ id: eventIdFor('req-1', 'UsageDisputed'), type: 'UsageDisputed', data: { severity: 'hard', disputes: [counted] } });
  });
});

describe('a caller with spend limits', () => {
  const threshold: NewEvent = { id: 'threshold-1', type: 'BudgetThresholdCrossed', data: {}, metadata: { schemaVersion: 1 } };

  function budgetsFake() {
    const calls: string[] = [];
    const budgets: Partial<BudgetHolds> = {
      settlementEvents: () => [threshold],
      settled: (holdCtx, cost) => void calls.push(`settled ${holdCtx.requestId} ${cost}`),
      chargeFailed: (requestId) => void calls.push(`failed ${requestId}`),
    };
    return { budgets, calls };
  }

  it('given thresholds the charge crosses, then they go in the same append and the holds settle at the charged cost', async () => {
    const { budgets, calls } = budgetsFake();
    const { billing, store } = billingWith({ budgets });

    const usage = await billing.charge(chat());

    expect(typesOf(store.appended[0].events)).toEqual(['UsageMeasured', 'CostPriced', 'BudgetThresholdCrossed']);
    expect(calls).toEqual([`settled req-1 ${usage.cost_usd_micros}`]);
  });

  it('given the charge cannot be recorded, then the holds are told it failed and nothing settles', async () => {
    const { budgets, calls } = budgetsFake();
    const { billing, store } = billingWith({ budgets });
    store.failing = new Error('store down');

    await expect(billing.charge(chat())).rejects.toMatchObject({ status: 503 });
    expect(calls).toEqual(['failed req-1']);
  });
});
