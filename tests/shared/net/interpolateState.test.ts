import { describe, expect, it } from 'vitest';
import {
  cloneState,
  compileAngleMatcher,
  interpolateState,
  lerpAngle,
  wrapAngle,
} from '../../../shared/net/interpolateState';

describe('angles', () => {
  it('wraps into [-π, π)', () => {
    expect(wrapAngle(0)).toBe(0);
    expect(wrapAngle(Math.PI)).toBeCloseTo(-Math.PI, 12);
    expect(wrapAngle(3 * Math.PI)).toBeCloseTo(-Math.PI, 12);
    expect(wrapAngle(-Math.PI / 2 - 4 * Math.PI)).toBeCloseTo(-Math.PI / 2, 12);
  });

  it('interpolates the short way round across ±π', () => {
    // 3.0 → -3.0 is 0.283 rad the short way (through π), 6 rad the long way (through 0).
    const mid = lerpAngle(3.0, -3.0, 0.5);
    expect(Math.abs(mid)).toBeCloseTo(Math.PI, 12);
    expect(lerpAngle(3.0, -3.0, 0.25)).toBeCloseTo(3.0 + (2 * Math.PI - 6) / 4, 12);
    expect(lerpAngle(-3.0, 3.0, 0.25)).toBeCloseTo(-3.0 - (2 * Math.PI - 6) / 4, 12);
    expect(lerpAngle(0.5, 1.5, 0.5)).toBeCloseTo(1.0, 12);
  });

  it('matches angle fields by dotted path, wildcard or predicate', () => {
    const byPath = compileAngleMatcher(['heading', 'players.*.aim']);
    expect(byPath(['heading'])).toBe(true);
    expect(byPath(['players', '7', 'aim'])).toBe(true);
    expect(byPath(['players', '7', 'x'])).toBe(false);
    expect(byPath(['turret', 'heading'])).toBe(false);
    const byPredicate = compileAngleMatcher((path) => path.at(-1) === 'angle');
    expect(byPredicate(['a', 'b', 'angle'])).toBe(true);
    expect(compileAngleMatcher(undefined)(['heading'])).toBe(false);
    expect(() => compileAngleMatcher([''])).toThrow(TypeError);
  });
});

describe('interpolateState', () => {
  const a = { x: 0, pos: { y: 10, z: [1, 2] }, heading: 3.0, name: 'a', alive: true, only: 5 };
  const b = { x: 10, pos: { y: 20, z: [3, 6] }, heading: -3.0, name: 'b', alive: false, extra: 1 };

  it('blends nested numbers and arrays, angles the short way, and holds the rest from the earlier state', () => {
    const out = interpolateState<Record<string, unknown>>(a, b, 0.5, compileAngleMatcher(['heading']));
    expect(out).toMatchObject({ x: 5, pos: { y: 15, z: [2, 4] }, name: 'a', alive: true, only: 5 });
    expect(Math.abs(out.heading as number)).toBeCloseTo(Math.PI, 12);
    expect(out).not.toHaveProperty('extra');
  });

  it('without angle config blends angles linearly (the long way)', () => {
    expect(interpolateState({ h: 3 }, { h: -3 }, 0.5).h).toBe(0);
  });

  it('is exact at both ends', () => {
    expect(interpolateState({ v: 0.1 }, { v: 0.3 }, 1).v).toBe(0.3);
    expect(interpolateState({ v: 0.1 }, { v: 0.3 }, 0).v).toBe(0.1);
  });

  it('holds the earlier value for mismatched shapes', () => {
    expect(interpolateState<unknown>({ v: [1, 2] }, { v: [1, 2, 3] }, 0.5)).toEqual({ v: [1, 2] });
    expect(interpolateState<unknown>({ v: 1 }, { v: 'x' }, 0.9)).toEqual({ v: 1 });
    expect(interpolateState<unknown>({ v: null }, { v: 2 }, 0.9)).toEqual({ v: null });
  });

  it('returns fresh objects that do not alias its inputs', () => {
    const out = interpolateState(a, { ...b, only: 1 }, 0.3);
    out.pos.z[0] = 99;
    expect(a.pos.z[0]).toBe(1);
    const copy = cloneState(a);
    copy.pos.y = -1;
    expect(a.pos.y).toBe(10);
  });
});
