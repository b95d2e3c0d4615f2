import type { RecordedEvent } from '../../event-store/event-store.port';
import { EventContractError } from '../../projections/parking/event-contract-error';
import { checkCostPricedEvent } from './cost-priced-contract';

function recorded(data: Record<string, unknown>): RecordedEvent {
  return { id: 'e-1', type: 'CostPriced', streamId: 'request-1', revision: 1, position: '2', metadata: { schemaVersion: 1 }, recordedAt: '2026-11-28T10:00:00.000Z', data };
}

const VALID = { requestId: 'r-1', organizationId: 'org-a', lineItems: [], occurredAt: '2026-11-28T23:59:59.999Z', costUsdMicros: '1250' };

describe('checkCostPricedEvent', () => {
  it('checks a recorded event once, however many folds ask', () => {
    const data = { ...VALID };
    let reads = 0;
    const event = recorded(data);
    Object.defineProperty(event, 'data', { get: () => (reads += 1, data) });
    const first = checkCostPricedEvent(event);
    expect(checkCostPricedEvent(event)).toBe(first);
    expect(reads).toBe(1);
    expect(first).toEqual({ event: data, day: '2026-11-28', costUsdMicros: 1250n });
  });

  it('throws the same contract error to every fold that asks', () => {
    const event = recorded({ ...VALID, organizationId: '' });
    const errors = [0, 1].map(() => {
      try {
        checkCostPricedEvent(event);
        return null;
      } catch (error) {
        return error;
      }
    });
    expect(errors[0]).toBeInstanceOf(EventContractError);
    expect(errors[1]).toBe(errors[0]);
    expect((errors[0] as Error).message).toBe('CostPriced "r-1": organizationId missing');
  });

  it('takes micros at the one-event limit and refuses them just past it, as text or number', () => {
    expect(checkCostPricedEvent(recorded({ ...VALID, costUsdMicros: '9007199254740991' })).costUsdMicros).toBe(9007199254740991n);
    expect(checkCostPricedEvent(recorded({ ...VALID, costUsdMicros: '-999999999999999' })).costUsdMicros).toBe(-999999999999999n);
    expect(checkCostPricedEvent(recorded({ ...VALID, costUsdMicros: 42 })).costUsdMicros).toBe(42n);
    expect(checkCostPricedEvent(recorded({ ...VALID, costUsdMicros: null })).costUsdMicros).toBe(0n);
    expect(() => checkCostPricedEvent(recorded({ ...VALID, costUsdMicros: '9007199254740992' }))).toThrow(/beyond the 9007199254740991 micros/);
    expect(() => checkCostPricedEvent(recorded({ ...VALID, costUsdMicros: '12.5' }))).toThrow(/not an integer number of micros/);
    expect(() => checkCostPricedEvent(recorded({ ...VALID, occurredAt: 'yesterday' }))).toThrow('CostPriced "r-1": occurredAt "yesterday" is not a timestamp');
  });
});
