import type { ModelStatusChangedV1 } from './model-status.events';
import { nextModelStatus } from './model-status.fold';
import { EventContractError } from '../../projections/parking/event-contract-error';

const change = (status: 'warm' | 'cold', observedAt: string): ModelStatusChangedV1 => ({ model: 'm', status, previous: null, observedAt, reason: 'probe' });

describe('nextModelStatus', () => {
  it('takes the first observation of a model', () => {
    expect(nextModelStatus(undefined, change('warm', '2025-01-01T00:00:00Z'))).toEqual({ status: 'warm', observedAt: '2025-01-01T00:00:00Z' });
  });

  it('takes a newer or equally recent observation', () => {
    const current = { status: 'warm' as const, observedAt: '2025-01-01T00:00:00Z' };
    expect(nextModelStatus(current, change('cold', '2025-01-01T00:00:01Z'))?.status).toBe('cold');
    expect(nextModelStatus(current, change('cold', '2025-01-01T00:00:00.000Z'))?.status).toBe('cold');
  });

  it('ignores an observation older than the known one (another replica lagging)', () => {
    expect(nextModelStatus({ status: 'warm', observedAt: '2025-01-01T00:00:05Z' }, change('cold', '2025-01-01T00:00:01Z'))).toBeNull();
  });

  it('rejects an unparseable observedAt', () => {
    expect(() => nextModelStatus(undefined, change('warm', 'yesterday'))).toThrow('not a timestamp');
  });

  it.each([
    ['null data', null],
    ['no model', { status: 'warm', observedAt: '2025-01-01T00:00:00Z' }],
    ['an unknown status', { model: 'm', status: 'lukewarm', observedAt: '2025-01-01T00:00:00Z' }],
    ['a garbage timestamp', { model: 'm', status: 'warm', observedAt: 42 }],
  ])('refuses %s as a contract violation (parked, not retried)', (_what, data) => {
    expect(() => nextModelStatus(undefined, data as unknown as ModelStatusChangedV1)).toThrow(EventContractError);
  });
});
