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

  it('counts an admission delivered again (local, then via the subscription) once', () => {
    const state = createRateLimitState(() => limit);
    admitLocally(state, org, limit, 'r1', 1_000);
    evolve(state, admitted('r1', 1_000));
    evolve(state, admitted('r1', 1_000));
    expect(decideAdmission(state, org, limit, 1_001).remaining).toBe(1);
  });

  it('counts admissions of other replicas, even out of order', () => {
    const state = createRateLimitState(() => limit);
    evolve(state, admitted('late', 5_000));
    evolve(state, admitted('early', 2_000));
    evolve(state, admitted('mid', 3_000));
    expect(toSnapshot(state)[org].map(([id]) => id)).toEqual(['early', 'mid', 'late']);
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
    expect(toSnapshot(state)[org].map(([id]) => id)).toEqual(['r7', 'r8', 'r9']);
    evolve(state, admitted('much-later', 200_000));
    expect(toSnapshot(state)[org].map(([id]) => id)).toEqual(['much-later']);
    evolve(state, admitted('r1', 1_000));
    expect(toSnapshot(state)[org].map(([id]) => id)).toEqual(['much-later']);
  });

  it('withdraws a local admission that could not be recorded, and nothing else', () => {
    const state = createRateLimitState(() => limit);
    ['r1', 'r2', 'r3'].forEach((id, n) => admitLocally(state, org, limit, id, n));
    withdraw(state, org, 'r2');
    withdraw(state, org, 'unknown');
    withdraw(state, 'org-b', 'r1');
    expect(toSnapshot(state)[org].map(([id]) => id)).toEqual(['r1', 'r3']);
    expect(decideAdmission(state, org, limit, 10).admitted).toBe(true);
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
    evolve(restored, admitted('r2', 2));
    expect(decideAdmission(restored, org, limit, 3).remaining).toBe(0);
  });
});
