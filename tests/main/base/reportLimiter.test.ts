import { describe, expect, it } from 'vitest';
import { ReportLimiter } from '../../../main/base/reportLimiter';

describe('ReportLimiter', () => {
  it('admits the budget of a window, counts the rest, and starts afresh once the window is over', () => {
    const limiter = new ReportLimiter(3, 1000);
    expect(limiter.windowOver(0)).toBe(true);
    expect([0, 10, 20, 30, 40].map((t) => limiter.admit(t))).toEqual([true, true, true, false, false]);
    expect(limiter.windowOver(999)).toBe(false);
    expect(limiter.windowEndsAt()).toBe(1000);
    expect(limiter.drainSuppressed()).toBe(2);
    expect(limiter.drainSuppressed()).toBe(0);
    expect(limiter.admit(999)).toBe(false);
    expect(limiter.windowOver(1000)).toBe(true);
    expect(limiter.admit(1500)).toBe(true);
    // The new window began with the report at 1500, not at 1000.
    expect(limiter.windowEndsAt()).toBe(2500);
    expect([1600, 1700, 2400].map((t) => limiter.admit(t))).toEqual([true, true, false]);
    expect(limiter.drainSuppressed()).toBe(2);
  });
});
