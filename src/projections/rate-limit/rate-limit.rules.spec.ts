import {
  admitLocally,
  createRateLimitState,
  decideAdmission,
  evolve,
  fromSnapshot,
  pruneExpired,
  toSnapshot,
  withdraw,
} from './rate-limit.rules';

const limit = { requests: 3, window_seconds: 60 };
const org = 'org-a';
const admitted = (requestId: string, admittedAt: number) => ({ requestId, organizationId: org, admittedAt });

describe('rate-limit rules', () => {
  it('admits up to the limit, counting down remaining', () => {
    const state = createRateLimitState(() => limit);
    const decisions = [0, 1, 2, 3].map((n) => admitLocally(state, org, limit, `r${n}`, 1_000 + n));
    expect(decisions.map((d) => [d.admitted, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
  });

  it('tells exactly when the oldest admission leaves the window, rounded up to whole seconds', () => {
    const state = createRateLimitState(() => limit);
    [10_000, 20_500, 30_000].forEach((at, n) => evolve(state, admitted(`r${n}`, at)));
    // r0 counts until 70_000 (exclusive): at 40_000 that is 30 s away.
    expect(decideAdmission(state, org, limit, 40_000)).toEqual({ admitted: false, remaining: 0, retryAfterSeconds: 30 });
    expect(decideAdmission(state, org, limit, 40_001).retryAfterSeconds).toBe(30);
    expect(decideAdmission(state, org, limit, 69_999).retryAfterSeconds).toBe(1);
    expect(decideAdmission(state, org, limit, 70_000)).toEqual({ admitted: true, remaining: 0, retryAfterSeconds: null });
  });

  it('never answers a Retry-After below one second', () => {
    const state = createRateLimitState(() => limit);
    [1, 2, 3].forEach((at, n) => evolve(state, admitted(`r${n}`, at)));
    expect(decideAdmission(state, org, limit, 60_000).retryAfterSeconds).toBe(1);
  });

  it('refuses everything under a zero limit, retrying after one window', () => {
    const closed = { requests: 0, window_seconds: 30 };
    expect(decideAdmission(createRateLimitState(() => closed), org, closed, 5)).toEqual({ admitted: false, remaining: 0, retryAfterSeconds: 30 });
  });

  it('counts a local admission once when its event comes back through the subscription', () => {
    const state = createRateLimitState(() => limit);
    admitLocally(state, org, limit, 'r1', 1_000);
    evolve(state, admitted('r1', 1_000));
    expect(decideAdmission(state, org, limit, 1_001).remaining).toBe(1);
    evolve(state, admitted('other-replica', 1_000));
    expect(decideAdmission(state, org, limit, 1_001).remaining).toBe(0);
  });

  it('counts admissions of other replicas, even out of order', () => {
    const state = createRateLimitState(() => limit);
    evolve(state, admitted('late', 5_000));
    evolve(state, admitted('early', 2_000));
    evolve(state, admitted('mid', 3_000));
    expect(toSnapshot(state)[org]).toEqual([2_000, 3_000, 5_000]);
    expect(decideAdmission(state, org, limit, 6_000).retryAfterSeconds).toBe(56);
  });

  it('keeps organizations apart', () => {
    const state = createRateLimitState(() => limit);
    [1, 2, 3].forEach((n) => evolve(state, admitted(`r${n}`, n)));
    expect(decideAdmission(state, 'org-b', limit, 10).admitted).toBe(true);
  });

  it('bounds a log by the limit and the window', () => {
    const state = createRateLimitState(() => limit);
    for (let n = 0; n < 10; n++) evolve(state, admitted(`r${n}`, n * 1000));
    expect(toSnapshot(state)[org]).toEqual([7_000, 8_000, 9_000]);
    evolve(state, admitted('much-later', 200_000));
    expect(toSnapshot(state)[org]).toEqual([200_000]);
    evolve(state, admitted('r1', 1_000));
    expect(toSnapshot(state)[org]).toEqual([200_000]);
  });

  it('withdraws a local admission that could not be recorded, and nothing else', () => {
    const state = createRateLimitState(() => limit);
    ['r1', 'r2', 'r3'].forEach((id, n) => admitLocally(state, org, limit, id, n));
    withdraw(state, org, 'r2');
    withdraw(state, org, 'unknown');
    withdraw(state, 'org-b', 'r1');
    expect(decideAdmission(state, org, limit, 10)).toEqual({ admitted: true, remaining: 0, retryAfterSeconds: null });
    evolve(state, admitted('r1', 0));
    evolve(state, admitted('r3', 2));
    expect(toSnapshot(state)[org]).toEqual([0, 2]);
  });

  it('prunes expired admissions and empty organizations', () => {
    const state = createRateLimitState(() => limit);
    evolve(state, admitted('old', 1_000));
    evolve(state, { requestId: 'fresh', organizationId: 'org-b', admittedAt: 50_000 });
    pruneExpired(state, 61_000);
    expect(Object.keys(toSnapshot(state))).toEqual(['org-b']);
  });

  it('round-trips through a snapshot', () => {
    const state = createRateLimitState(() => limit);
    [1, 2].forEach((n) => evolve(state, admitted(`r${n}`, n)));
    const restored = fromSnapshot(() => limit, JSON.parse(JSON.stringify(toSnapshot(state))));
    expect(toSnapshot(restored)).toEqual(toSnapshot(state));
    expect(decideAdmission(restored, org, limit, 3).remaining).toBe(0);
  });

  it('leaves local admissions not yet delivered out of the snapshot: they are replayed from the store', () => {
    const state = createRateLimitState(() => limit);
    evolve(state, admitted('delivered', 5));
    admitLocally(state, org, limit, 'in-flight', 5);
    admitLocally(state, org, limit, 'in-flight-2', 6);
    expect(toSnapshot(state)).toEqual({ [org]: [5] });
    const restored = fromSnapshot(() => limit, toSnapshot(state));
    evolve(restored, admitted('in-flight', 5));
    evolve(restored, admitted('in-flight-2', 6));
    expect(decideAdmission(restored, org, limit, 7).admitted).toBe(false);
  });

  it('leaves out only the undelivered admissions when delivered ones share their millisecond', () => {
    const roomy = { requests: 100, window_seconds: 60 };
    const state = createRateLimitState(() => roomy);
    [1, 2, 3, 5].forEach((time, n) => evolve(state, admitted(`d${n}`, time)));
    expect(admitLocally(state, org, roomy, 'pending-5', 5).admitted).toBe(true);
    expect(admitLocally(state, org, roomy, 'pending-6', 6).admitted).toBe(true);
    expect(toSnapshot(state)).toEqual({ [org]: [1, 2, 3, 5] });
  });

  it('restores a snapshot written as [requestId, admittedAt] pairs', () => {
    const restored = fromSnapshot(() => limit, { [org]: [['r1', 10], ['r2', 20]] });
    expect(toSnapshot(restored)).toEqual({ [org]: [10, 20] });
  });

  it('keeps a large limit\'s log exact and bounded by the window', () => {
    const large = { requests: 1_000_000, window_seconds: 1 };
    const state = createRateLimitState(() => large);
    for (let n = 0; n < 50_000; n++) evolve(state, admitted(`r${n}`, n));
    expect(toSnapshot(state)[org]).toHaveLength(1_000);
    expect(decideAdmission(state, org, large, 49_999).remaining).toBe(large.requests - 1_000 - 1);
    pruneExpired(state, 51_000);
    expect(state.logs.size).toBe(0);
  });
});
