import { backoffDelayMs } from './backoff';

describe('backoffDelayMs', () => {
  const policy = { initialMs: 100, maxMs: 1_000 };

  it('starts at the initial delay and doubles per consecutive failure', () => {
    expect([1, 2, 3, 4].map((failures) => backoffDelayMs(failures, policy))).toEqual([100, 200, 400, 800]);
  });

  it('never exceeds the cap, however long the outage', () => {
    expect(backoffDelayMs(5, policy)).toBe(1_000);
    expect(backoffDelayMs(10_000, policy)).toBe(1_000);
  });
});
