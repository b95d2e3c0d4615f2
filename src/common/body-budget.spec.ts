import { BodyBudget, bodyBudgetFrom, DEFAULT_BODY_BUDGET_BYTES } from './body-budget';

const MiB = 1024 * 1024;

describe('BodyBudget', () => {
  it('admits bodies up to the budget exactly and refuses one byte past it', () => {
    const budget = new BodyBudget(10 * MiB);
    expect(budget.tryTake(4 * MiB)).toBe(true);
    expect(budget.tryTake(6 * MiB + 1)).toBe(false);
    expect(budget.tryTake(6 * MiB)).toBe(true);
    expect(budget.bytesInFlight).toBe(10 * MiB);
    expect(budget.tryTake(1)).toBe(false);
  });

  it('always admits a request alone, even past the budget, and nothing beside it', () => {
    const budget = new BodyBudget(1 * MiB);
    expect(budget.tryTake(100 * MiB)).toBe(true);
    expect(budget.tryTake(1)).toBe(false);
    budget.give(100 * MiB);
    expect(budget.bytesInFlight).toBe(0);
    expect(budget.tryTake(100 * MiB)).toBe(true);
  });

  it('lets a streamed body grow past the budget only while it is alone', () => {
    const budget = new BodyBudget(10);
    expect(budget.tryTake(8)).toBe(true);
    expect(budget.tryTake(8, 8)).toBe(true); // its own 8 bytes only: alone
    expect(budget.tryTake(3)).toBe(false); // another request beside it
    const shared = new BodyBudget(10);
    shared.tryTake(4);
    shared.tryTake(3);
    expect(shared.tryTake(3, 3)).toBe(true); // 10: at the edge
    expect(shared.tryTake(1, 6)).toBe(false); // 11: just past it
  });

  it('gives back what was taken and never goes below zero', () => {
    const budget = new BodyBudget(10);
    budget.tryTake(7);
    budget.give(7);
    budget.give(7);
    expect(budget.bytesInFlight).toBe(0);
    expect(budget.tryTake(10)).toBe(true);
  });

  it('refuses a budget that is not a positive integer', () => {
    expect(() => new BodyBudget(0)).toThrow(/positive integer/);
    expect(() => new BodyBudget(1.5)).toThrow(/positive integer/);
  });
});

describe('bodyBudgetFrom', () => {
  it('reads GATEWAY_BODY_BUDGET_BYTES, defaults when unset and refuses anything else', () => {
    expect(bodyBudgetFrom({})).toBe(DEFAULT_BODY_BUDGET_BYTES);
    expect(bodyBudgetFrom({ GATEWAY_BODY_BUDGET_BYTES: '' })).toBe(DEFAULT_BODY_BUDGET_BYTES);
    expect(bodyBudgetFrom({ GATEWAY_BODY_BUDGET_BYTES: '1048576' })).toBe(MiB);
    for (const bad of ['0', '-5', '1.5', '10MiB', '9007199254740993']) {
      expect(() => bodyBudgetFrom({ GATEWAY_BODY_BUDGET_BYTES: bad })).toThrow(/GATEWAY_BODY_BUDGET_BYTES/);
    }
  });
});
