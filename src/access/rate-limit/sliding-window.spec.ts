import { decideAdmission, recordAdmission, pruneLog } from './sliding-window';

const limit = { requests: 3, window_seconds: 60 };

describe('sliding-window admission', () => {
  it('admits up to the limit and counts down the remaining budget', () => {
    let log: number[] = [];
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const d = decideAdmission(log, limit, 1000 + i);
      expect(d.admitted).toBe(true);
      remaining.push(d.remaining);
      log = recordAdmission(log, 1000 + i);
    }
    expect(remaining).toEqual([2, 1, 0]);
    expect(decideAdmission(log, limit, 1003)).toEqual({ admitted: false, limit: 3, remaining: 0, retryAfterSeconds: 60 });
  });

  it('says exactly when the oldest admission leaves the window', () => {
    const log = [0, 30_000, 59_000];
    expect(decideAdmission(log, limit, 59_500).retryAfterSeconds).toBe(1);
    expect(decideAdmission(log, limit, 59_999).admitted).toBe(false);
    expect(decideAdmission(log, limit, 60_000).admitted).toBe(true);
  });

  it('rounds Retry-After up to whole seconds and never below 1', () => {
    expect(decideAdmission([10_001, 10_002, 10_003], limit, 11_000).retryAfterSeconds).toBe(60);
  });

  it('keeps the log ordered when events arrive out of order', () => {
    expect(recordAdmission([1, 5, 9], 4)).toEqual([1, 4, 5, 9]);
    expect(pruneLog([1, 4, 5, 9], 5, 9)).toEqual([5, 9]);
  });
});
