import { describe, expect, it } from 'vitest';
import { createAttemptBudget } from '../../../main/base/attemptBudget';

describe('the room-wide attempt budget', () => {
  it('answers 20 unproven attempts at once, then one every 2 s, saying how long to wait', () => {
    let t = 0;
    const budget = createAttemptBudget(() => t, 20, 2000);
    for (let i = 0; i < 20; i++) expect(budget.take()).toBe(0);
    expect(budget.take()).toBe(2000);
    t += 500;
    expect(budget.take()).toBe(1500);
    t += 1500;
    expect(budget.take()).toBe(0);
    expect(budget.take()).toBe(2000);
    // An attack of 1,000 attempts over 100 s gets 20 + 50 answers, not 1,000.
    let answered = 0;
    for (let i = 0; i < 1000; i++, t += 100) if (budget.take() === 0) answered += 1;
    expect(answered).toBeLessThanOrEqual(51);
    // Once it stops, a real guest is answered within one refill interval.
    t += 2000;
    expect(budget.take()).toBe(0);
  });

  it('a proven attempt gives its token back, so real guests do not use up the room', () => {
    const budget = createAttemptBudget(() => 0, 2, 2000);
    for (let i = 0; i < 10; i++) {
      expect(budget.take()).toBe(0);
      budget.succeeded();
    }
  });
});
