import { describe, expect, it } from 'vitest';
import {
  firstMove,
  pathErrors,
  positionAt,
  snappedFrames,
  type DrawnSample,
} from '../../../bench/keyToPixel/motionTrace';

/** Frames every 16 ms from t = 0, at the given x positions (y 0). */
const frames = (xs: number[]): DrawnSample[] => xs.map((x, i) => ({ t: i * 16, x, y: 0 }));

describe('firstMove', () => {
  it('answers the first frame after the key that is a threshold away from where the key found the player', () => {
    // Key at t = 20: the frame at 16 (x 5) is the start; 5.5 is under the threshold, 6.2 reaches it.
    const trace = frames([0, 5, 5, 5.5, 6.2, 9]);
    expect(firstMove(trace, 20, 1)).toBe(64);
  });

  it('does not count movement before the key, and measures the diagonal', () => {
    const trace: DrawnSample[] = [
      { t: 0, x: 0, y: 0 },
      { t: 10, x: 50, y: 50 },
      { t: 20, x: 50.6, y: 50.6 },
      { t: 30, x: 50.8, y: 50.8 },
    ];
    expect(firstMove(trace, 10, 1)).toBe(30);
  });

  it('takes the first frame as the start when none was drawn before the key, and is undefined without a move', () => {
    expect(firstMove(frames([3, 3, 4.5]), -5, 1)).toBe(32);
    expect(firstMove(frames([3, 3.2, 3.4]), 0, 1)).toBeUndefined();
    expect(firstMove([], 0, 1)).toBeUndefined();
  });
});

describe('snappedFrames', () => {
  it('counts steps faster than a player runs (with slack and rounding allowed), not movement', () => {
    // 0.32 units/ms: 16 ms allows 0.32 × 1.5 × 16 + 1 = 8.68 units.
    expect(snappedFrames(frames([0, 5, 10, 15]), 0.32)).toBe(0);
    expect(snappedFrames(frames([0, 5, 30, 35, 35]), 0.32)).toBe(1);
    expect(snappedFrames(frames([0]), 0.32)).toBe(0);
  });
});

describe('positionAt', () => {
  it('interpolates between frames and answers nothing outside them', () => {
    const trace = frames([0, 16, 16]);
    expect(positionAt(trace, 8)).toEqual({ x: 8, y: 0 });
    expect(positionAt(trace, 32)).toEqual({ x: 16, y: 0 });
    expect(positionAt(trace, -1)).toBeUndefined();
    expect(positionAt(trace, 33)).toBeUndefined();
    expect(positionAt([], 0)).toBeUndefined();
  });
});

describe('pathErrors', () => {
  it('is zero for the own path replayed exactly `lag` later, and shows a snap as its distance', () => {
    const own = frames([0, 4, 8, 12, 16, 20]);
    const remote = own.map((s) => ({ ...s, t: s.t + 32 }));
    expect(pathErrors(remote, own, 32, 32)).toEqual([0, 0, 0, 0, 0, 0]);
    const snapped = remote.map((s, i) => (i === 3 ? { ...s, x: s.x + 10 } : s));
    expect(Math.max(...pathErrors(snapped, own, 32, 32))).toBe(10);
  });

  it('leaves out frames before `from` and those with no own position then', () => {
    const own = frames([0, 4, 8]);
    const remote = frames([0, 4, 8, 12]).map((s) => ({ ...s, t: s.t + 16 }));
    // Remote t 16..64, own t 0..32: at lag 16 remote 64 maps to 48, past the own path.
    expect(pathErrors(remote, own, 16, 32)).toEqual([0, 0]);
  });
});
