import { describe, expect, it } from 'vitest';
import { createJoinBudget } from '../../../../main/lobby/internet/joinBudget';

describe('the room-wide join budget', () => {
  it('answers 20 unproven attempts a minute, then says how long to wait; proven ones give their place back', () => {
    let t = 0;
    const budget = createJoinBudget(() => t, 20, 60_000);
    for (let i = 0; i < 20; i++) {
      expect(budget.take()).toBe(0);
      budget.failed();
      t += 1000;
    }
    expect(budget.take()).toBe(40_000); // the first failure (t = 0) leaves the window at 60 s
    t = 60_000;
    expect(budget.take()).toBe(0);
    budget.succeeded();
    expect(budget.take()).toBe(0);
    budget.succeeded();
  });

  it('counts answers still waiting for their confirmation, so parallel guesses cannot overrun it', () => {
    const budget = createJoinBudget(() => 0, 3);
    expect([budget.take(), budget.take(), budget.take()]).toEqual([0, 0, 0]);
    expect(budget.take()).toBe(1000);
    budget.succeeded();
    expect(budget.take()).toBe(0);
  });
});
