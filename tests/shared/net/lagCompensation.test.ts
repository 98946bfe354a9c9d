import { describe, expect, it } from 'vitest';
import { lagCompensatedPosition } from '../../../shared/net/lagCompensation';
import { SnapshotInterpolator } from '../../../shared/net/snapshotInterpolator';

interface Target {
  position: { x: number; y: number };
  hp: number;
  path: number[];
}

/** A target that moved 100 units/s along x, recorded every 0.1 s from t = 0 to 1, with the clock now at 1. */
function movingTarget() {
  const clock = { t: 0 };
  const history = new SnapshotInterpolator<Target>({ now: () => clock.t });
  for (let i = 0; i <= 10; i += 1) {
    clock.t = i / 10;
    history.add({ position: { x: 10 * i, y: 5 }, hp: 100 - i, path: [i, -i] });
  }
  return { clock, history };
}

describe('lagCompensatedPosition', () => {
  it('rewinds from the history clock by default', () => {
    const { history } = movingTarget();
    expect(lagCompensatedPosition(history, 0)?.position).toEqual({ x: 100, y: 5 });
    expect(lagCompensatedPosition(history, 0.25)?.position.x).toBeCloseTo(75, 9);
  });

  it('uses an explicit now when given', () => {
    const { history } = movingTarget();
    expect(lagCompensatedPosition(history, 0.1, { now: 0.5 })?.position.x).toBeCloseTo(40, 9);
  });

  it('drills into fieldPath, including array indices', () => {
    const { history } = movingTarget();
    const position = lagCompensatedPosition(history, 0.5, { fieldPath: ['position'] });
    expect(position).toEqual({ x: 50, y: 5 });
    expect(lagCompensatedPosition(history, 0.5, { fieldPath: ['position', 'x'] })).toBe(50);
    expect(lagCompensatedPosition(history, 0.5, { fieldPath: ['path', 1] })).toBe(-5);
  });

  it('returns undefined for a missing path (not prototype members) and for an empty history', () => {
    const { history } = movingTarget();
    expect(lagCompensatedPosition(history, 0, { fieldPath: ['nope', 'x'] })).toBeUndefined();
    expect(lagCompensatedPosition(history, 0, { fieldPath: ['hp', 'x'] })).toBeUndefined();
    expect(lagCompensatedPosition(history, 0, { fieldPath: ['toString'] })).toBeUndefined();
    const empty = new SnapshotInterpolator<Target>({ now: () => 3 });
    expect(lagCompensatedPosition(empty, 0.1)).toBeUndefined();
    expect(lagCompensatedPosition(empty, 0.1, { fieldPath: ['position'] })).toBeUndefined();
  });

  it('clamps to the oldest snapshot when rewinding past the history', () => {
    const { history } = movingTarget();
    expect(lagCompensatedPosition(history, 60)?.position.x).toBe(0);
  });

  it('rejects a negative or non-finite rewind', () => {
    const { history } = movingTarget();
    expect(() => lagCompensatedPosition(history, -0.1)).toThrow(RangeError);
    expect(() => lagCompensatedPosition(history, Number.NaN)).toThrow(RangeError);
  });
});
