import { describe, expect, it } from 'vitest';
import { resolveCircleRect } from '../../../../shared/games/tag/collision';
import { normalizeInput } from '../../../../shared/games/tag/input';
import { applyMove } from '../../../../shared/games/tag/movement';
import { DEFAULT_ARENA, RULES } from '../../../../shared/games/tag/rules';
import type { Arena, PlayerBody } from '../../../../shared/games/tag/types';
import { SeededRandom } from '../../../../shared/random/prng';
import { input, OPEN_ARENA } from './fixtures';

const DT = 1 / 60;
const R = RULES.playerRadius;

function body(x: number, y: number, it = false): PlayerBody {
  return { x, y, vx: 0, vy: 0, it };
}

function run(start: PlayerBody, moveX: number, moveY: number, seconds: number, arena: Arena = OPEN_ARENA): PlayerBody {
  let b = start;
  for (let i = 0; i < Math.round(seconds / DT); i += 1) b = applyMove(b, input(moveX, moveY), DT, arena);
  return b;
}

describe('applyMove', () => {
  it('is deterministic: the same inputs give bit-identical results', () => {
    const replay = () => {
      const rng = new SeededRandom(3);
      let b = body(800, 450);
      for (let i = 0; i < 600; i += 1) {
        b = applyMove(b, input(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)), rng.range(0.005, 0.03), DEFAULT_ARENA);
      }
      return b;
    };
    const first = replay();
    expect(replay()).toEqual(first);
    expect(first.x).not.toBe(800);
  });

  it('accelerates to top speed and comes to an exact stop', () => {
    const moving = run(body(100, 450), 1, 0, 1);
    expect(moving.vx).toBeCloseTo(RULES.maxSpeed, 6);
    expect(moving.vy).toBe(0);
    const stopped = run(moving, 0, 0, 2);
    expect(stopped.vx).toBe(0);
  });

  it('normalises diagonal and oversized input, and ignores non-finite axes', () => {
    const diagonal = run(body(800, 450), 1, 1, 1);
    expect(Math.hypot(diagonal.vx, diagonal.vy)).toBeCloseTo(RULES.maxSpeed, 6);
    expect(normalizeInput(input(5, 0)).moveX).toBe(1);
    expect(normalizeInput(input(Number.NaN, -7))).toMatchObject({ moveX: 0, moveY: -1 });
    expect(normalizeInput({ sequence: 1, moveX: 0, moveY: 0, tag: 'yes' as unknown as boolean }).tag).toBe(false);
  });

  it('makes "it" a little faster', () => {
    expect(run(body(100, 450, true), 1, 0, 1).vx).toBeCloseTo(RULES.maxSpeed * RULES.itSpeedMultiplier, 6);
  });

  it('keeps players inside the arena walls and stops them there', () => {
    const left = run(body(100, 100), -1, -1, 2);
    expect(left).toMatchObject({ x: R, y: R, vx: 0, vy: 0 });
    const right = run(body(1500, 800), 1, 1, 2);
    expect(right).toMatchObject({ x: OPEN_ARENA.width - R, y: OPEN_ARENA.height - R, vx: 0, vy: 0 });
  });

  it('stops at an obstacle and slides along it', () => {
    const pillar = DEFAULT_ARENA.obstacles[0]!; // x 760..840, y 350..550
    const blocked = run(body(600, 450), 1, 0, 2, DEFAULT_ARENA);
    expect(blocked.x).toBeCloseTo(pillar.x - R, 9);
    expect(blocked.vx).toBe(0);
    const sliding = run(body(600, 450), 1, 0.3, 0.8, DEFAULT_ARENA);
    expect(sliding.x).toBeCloseTo(pillar.x - R, 9);
    expect(sliding.y).toBeGreaterThan(450 + 50);
  });

  it('does not tunnel through a thin wall even at the largest step', () => {
    const arena: Arena = { width: 1600, height: 900, obstacles: [{ x: 500, y: 0, width: 2, height: 900 }] };
    let b: PlayerBody = { x: 400, y: 450, vx: RULES.maxSpeed, vy: 0, it: true };
    for (let i = 0; i < 20; i += 1) b = applyMove(b, input(1, 0), RULES.maxDt, arena);
    expect(b.x).toBeCloseTo(500 - R, 9);
  });

  it('caps dt at RULES.maxDt and rejects invalid dt', () => {
    const start: PlayerBody = { x: 800, y: 450, vx: 100, vy: 0, it: false };
    expect(applyMove(start, input(1, 0), 5, OPEN_ARENA)).toEqual(
      applyMove(start, input(1, 0), RULES.maxDt, OPEN_ARENA),
    );
    expect(applyMove(start, input(1, 0), 0, OPEN_ARENA)).toMatchObject({ x: 800, y: 450 });
    expect(() => applyMove(start, input(1, 0), -1, OPEN_ARENA)).toThrow(RangeError);
    expect(() => applyMove(start, input(1, 0), Number.NaN, OPEN_ARENA)).toThrow(RangeError);
  });

  it('keeps extra fields of the body it is given', () => {
    const extended = { ...body(800, 450), id: 'p1', score: 3 };
    expect(applyMove(extended, input(1, 0), DT, OPEN_ARENA)).toMatchObject({ id: 'p1', score: 3 });
  });
});

describe('resolveCircleRect', () => {
  it('pushes a centre that ended up inside a rectangle out through the nearest edge', () => {
    const c = { x: 505, y: 450, vx: 50, vy: 0 };
    resolveCircleRect(c, R, { x: 500, y: 400, width: 100, height: 100 });
    expect(c).toEqual({ x: 500 - R, y: 450, vx: 0, vy: 0 });
  });

  it('leaves a circle that only touches alone', () => {
    const c = { x: 500 - R, y: 450, vx: 50, vy: 0 };
    resolveCircleRect(c, R, { x: 500, y: 400, width: 100, height: 100 });
    expect(c).toEqual({ x: 500 - R, y: 450, vx: 50, vy: 0 });
  });
});
