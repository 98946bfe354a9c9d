import { describe, expect, it } from 'vitest';
import { createLogThrottle } from '../../../main/ipc/logThrottle';

describe('log throttle', () => {
  it('logs the first five, then one a minute with the count held back', () => {
    let now = 0;
    const throttle = createLogThrottle({ burst: 5, periodMs: 60_000, now: () => now });
    const lines = Array.from({ length: 1000 }, () => throttle.note('refused'));
    expect(lines.filter((l) => l !== null)).toEqual(['refused', 'refused', 'refused', 'refused', 'refused']);
    now = 59_999;
    expect(throttle.note('refused')).toBeNull();
    now = 60_000;
    expect(throttle.note('refused')).toBe('refused (996 more refused since the last report)');
    expect(throttle.note('refused')).toBeNull();
    now = 120_000;
    expect(throttle.note('refused')).toBe('refused (1 more refused since the last report)');
    now = 200_000;
    expect(throttle.note('refused')).toBe('refused');
  });
});
