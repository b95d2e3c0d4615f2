import { EventIdConflictError, type NewEvent } from '../event-store/event-store.port';
import { appendCharge } from './append-charge';

const event = (id: string, type: string): NewEvent => ({ id, type, data: {} });
const usage = event('u', 'UsageMeasured');
const cost = event('c', 'CostPriced');
const half = event('t50', 'BudgetThresholdCrossed');
const most = event('t80', 'BudgetThresholdCrossed');

/** An append that refuses each id in `storedElsewhere` as held by another stream, and records what it took. */
function fakeStore(storedElsewhere: string[]) {
  const attempts: string[][] = [];
  const append = async (events: NewEvent[]) => {
    attempts.push(events.map((e) => e.id));
    const clash = events.find((e) => storedElsewhere.includes(e.id));
    if (clash) throw new EventIdConflictError('request-b', clash.id, 'request-a');
    return 'appended';
  };
  return { append, attempts };
}

describe('appendCharge', () => {
  it('appends a charge as it is when nothing clashes', async () => {
    const store = fakeStore([]);
    await expect(appendCharge(store.append, [usage, cost, half])).resolves.toBe('appended');
    expect(store.attempts).toEqual([['u', 'c', 't50']]);
  });

  it('drops each threshold crossing another request recorded first, and appends the rest', async () => {
    const store = fakeStore(['t50', 't80']);
    await appendCharge(store.append, [usage, cost, half, most]);
    expect(store.attempts).toEqual([['u', 'c', 't50', 't80'], ['u', 'c', 't80'], ['u', 'c']]);
  });

  it('refuses a charge whose own usage or cost clashes, and any other failure, unchanged', async () => {
    await expect(appendCharge(fakeStore(['c']).append, [usage, cost, half])).rejects.toBeInstanceOf(EventIdConflictError);
    const broken = async () => {
      throw new Error('disk full');
    };
    await expect(appendCharge(broken, [usage, cost])).rejects.toThrow('disk full');
  });
});
