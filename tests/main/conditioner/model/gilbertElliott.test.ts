import { describe, expect, it } from 'vitest';
import { GilbertElliott } from '../../../../main/conditioner/model/gilbertElliott';
import { SeededRandom, type RandomSource } from '../../../../shared/random/prng';

/** Runs n datagrams and returns the loss pattern. */
function run(model: GilbertElliott, n: number): boolean[] {
  return Array.from({ length: n }, () => model.lose());
}

/** Lengths of every run of consecutive losses. */
function burstLengths(pattern: boolean[]): number[] {
  const lengths: number[] = [];
  let current = 0;
  for (const lost of pattern) {
    if (lost) current++;
    else if (current > 0) {
      lengths.push(current);
      current = 0;
    }
  }
  if (current > 0) lengths.push(current);
  return lengths;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('GilbertElliott', () => {
  it('matches the model: long-run loss enter/(enter+exit), mean burst length 1/exit', () => {
    const enter = 0.02;
    const exit = 0.25;
    const pattern = run(new GilbertElliott({ enter, exit, lossInBad: 1 }, new SeededRandom(11)), 100_000);
    const lossRate = pattern.filter(Boolean).length / pattern.length;
    expect(lossRate).toBeGreaterThan(enter / (enter + exit) - 0.01);
    expect(lossRate).toBeLessThan(enter / (enter + exit) + 0.01);
    const bursts = burstLengths(pattern);
    expect(bursts.length).toBeGreaterThan(1000);
    expect(mean(bursts)).toBeGreaterThan(1 / exit - 0.3);
    expect(mean(bursts)).toBeLessThan(1 / exit + 0.3);
  });

  it('is burstier than independent loss at the same rate', () => {
    const pattern = run(new GilbertElliott({ enter: 0.02, exit: 0.25, lossInBad: 1 }, new SeededRandom(3)), 50_000);
    const rate = pattern.filter(Boolean).length / pattern.length;
    const rng = new SeededRandom(3);
    const independent = Array.from({ length: 50_000 }, () => rng.next() < rate);
    expect(mean(burstLengths(pattern))).toBeGreaterThan(3 * mean(burstLengths(independent)));
  });

  it('loses only a share of datagrams in the bad state when lossInBad < 1', () => {
    const pattern = run(new GilbertElliott({ enter: 0.1, exit: 0.1, lossInBad: 0.5 }, new SeededRandom(5)), 100_000);
    const rate = pattern.filter(Boolean).length / pattern.length;
    // Half the time in the bad state, half of those lost.
    expect(rate).toBeGreaterThan(0.22);
    expect(rate).toBeLessThan(0.28);
  });

  it('never loses and never draws when disabled (enter = 0)', () => {
    let draws = 0;
    const counting: RandomSource = {
      next: () => {
        draws++;
        return 0;
      },
      nextUint32: () => 0,
    };
    const model = new GilbertElliott({ enter: 0, exit: 0.5, lossInBad: 1 }, counting);
    expect(run(model, 1000).some(Boolean)).toBe(false);
    expect(draws).toBe(0);
  });

  it('judges a datagram in the current state, then moves', () => {
    // A generator that always returns 0 enters the bad state on the first draw and leaves it on the next.
    const zero: RandomSource = { next: () => 0, nextUint32: () => 0 };
    const model = new GilbertElliott({ enter: 0.5, exit: 0.5, lossInBad: 1 }, zero);
    expect(model.lose()).toBe(false); // judged good, moves to bad
    expect(model.inBadState).toBe(true);
    expect(model.lose()).toBe(true); // judged bad, moves to good
    expect(model.inBadState).toBe(false);
  });

  it('ends a burst in progress when bursts are turned off', () => {
    const model = new GilbertElliott({ enter: 1, exit: 0.01, lossInBad: 1 }, new SeededRandom(1));
    model.lose();
    expect(model.inBadState).toBe(true);
    model.setParams({ enter: 0, exit: 0.01, lossInBad: 1 });
    expect(model.inBadState).toBe(false);
    expect(run(model, 100).some(Boolean)).toBe(false);
  });

  it('repeats exactly for the same seed', () => {
    const params = { enter: 0.05, exit: 0.3, lossInBad: 0.9 };
    expect(run(new GilbertElliott(params, new SeededRandom(9)), 5000)).toEqual(
      run(new GilbertElliott(params, new SeededRandom(9)), 5000),
    );
  });
});
