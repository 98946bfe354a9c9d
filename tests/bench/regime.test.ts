import { describe, expect, it } from 'vitest';
import { describeRegimes, regimeOf } from '../../bench/regime';

describe('regimeOf', () => {
  it('classifies a round by its own raw round trip: ~60 µs busy-core, ~160 µs idle-core', () => {
    expect(regimeOf(0.059)).toBe('busy-core');
    expect(regimeOf(0.1)).toBe('busy-core');
    expect(regimeOf(0.163)).toBe('idle-core');
  });

  it('has no regime for a missing or impossible figure', () => {
    expect(regimeOf(Number.NaN)).toBeUndefined();
    expect(regimeOf(0)).toBeUndefined();
  });

  it('describes each round in order', () => {
    expect(describeRegimes([0.061, 0.158, Number.NaN])).toBe(
      'round 1 busy-core (raw 0.061 ms), round 2 idle-core (raw 0.158 ms), round 3 unknown (raw — ms)',
    );
  });
});
