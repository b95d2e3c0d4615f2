import { InlineCommitPolicy } from './inline-commit-policy';

const timing = { quietMs: 1, idleLoopUtilization: 0.1, slowCommitMs: 20, pauseMs: 1000 };

describe('inline commit policy', () => {
  it('commits inline on a store that has not committed yet, with nothing in flight', () => {
    expect(new InlineCommitPolicy(timing).mayCommitInline(0, 0, 0)).toBe(true);
    expect(new InlineCommitPolicy(timing).mayCommitInline(0, 1, 0)).toBe(false);
  });

  it('waits for the quiet time after any commit, to the millisecond', () => {
    const policy = new InlineCommitPolicy(timing);
    policy.commitEnded(100);
    expect(policy.mayCommitInline(100.999, 0, 0)).toBe(false);
    expect(policy.mayCommitInline(101, 0, 0)).toBe(true);
    expect(policy.mayCommitInline(101, 3, 0)).toBe(false);
  });

  it('leaves the commits to the worker while the event loop is busier than the idle limit', () => {
    const policy = new InlineCommitPolicy(timing);
    expect(policy.mayCommitInline(0, 0, 0.1)).toBe(true);
    expect(policy.mayCommitInline(0, 0, 0.1001)).toBe(false);
    expect(policy.mayCommitInline(0, 0, 1)).toBe(false);
  });

  it('sends every commit to the worker for the pause after one slower than the limit, not after one at it', () => {
    const policy = new InlineCommitPolicy(timing);
    policy.inlineCommitEnded(50, 20);
    expect(policy.mayCommitInline(60, 0, 0)).toBe(true);
    policy.inlineCommitEnded(100, 20.001);
    expect(policy.mayCommitInline(500, 0, 0)).toBe(false);
    expect(policy.mayCommitInline(1099.999, 0, 0)).toBe(false);
    expect(policy.mayCommitInline(1100, 0, 0)).toBe(true);
  });
});
