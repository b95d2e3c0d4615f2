import { ManagementRateWindow } from './management-rate-window';

describe('management rate window', () => {
  it('admits exactly `requests` per key per window, then refuses with Retry-After until the window ends', () => {
    const window = new ManagementRateWindow(3, 60_000);
    const t0 = 1_000_000;
    expect([1, 2, 3].map(() => window.admit('m1', t0).admitted)).toEqual([true, true, true]);
    const refused = window.admit('m1', t0 + 10_500);
    expect(refused).toEqual({ admitted: false, limit: 3, remaining: 0, retryAfterSeconds: 50 });
    expect(window.admit('m2', t0 + 10_500).admitted).toBe(true);
    expect(window.admit('m1', t0 + 59_999).admitted).toBe(false);
    expect(window.admit('m1', t0 + 60_000)).toMatchObject({ admitted: true, remaining: 2 });
  });
});
