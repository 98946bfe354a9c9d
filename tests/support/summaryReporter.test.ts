import { describe, expect, it } from 'vitest';
import { ciSeconds, formatMinutes } from './summaryReporter';

describe('summaryReporter time line', () => {
  it('counts from .ci/run’s start, and only under it', () => {
    expect(ciSeconds('1000', 61_500)).toBe(60.5);
    expect(ciSeconds(undefined, 61_500)).toBeUndefined();
    expect(ciSeconds('', 61_500)).toBeUndefined();
    expect(ciSeconds('soon', 61_500)).toBeUndefined();
    expect(ciSeconds('90000', 61_500)).toBe(0); // a clock that stepped back
  });

  it('prints minutes and zero-padded seconds', () => {
    expect(formatMinutes(0)).toBe('0 min 00 s');
    expect(formatMinutes(545.4)).toBe('9 min 05 s');
    expect(formatMinutes(599.6)).toBe('10 min 00 s');
  });
});
