import { describe, expect, it } from 'vitest';
import { createGame } from '../../../../shared/games/tag/createGame';
import { circleOverlapsRect } from '../../../../shared/games/tag/collision';
import { DEFAULT_ARENA, RULES } from '../../../../shared/games/tag/rules';
import { SPAWN_WALL_CLEARANCE, spreadSpawns } from '../../../../shared/games/tag/spawns';
import type { Arena, Vec2 } from '../../../../shared/games/tag/types';
import { SeededRandom, type RandomSource } from '../../../../shared/random/prng';

const r = RULES.playerRadius;

function closestPair(spots: readonly Vec2[]): number {
  let best = Infinity;
  for (let i = 0; i < spots.length; i += 1)
    for (let j = i + 1; j < spots.length; j += 1)
      best = Math.min(best, Math.hypot(spots[i]!.x - spots[j]!.x, spots[i]!.y - spots[j]!.y));
  return best;
}

function wallDistance(arena: Arena, p: Vec2): number {
  return Math.min(p.x, p.y, arena.width - p.x, arena.height - p.y);
}

describe('spreadSpawns', () => {
  it('puts two players far apart, on opposite sides of the arena, for any seed', () => {
    for (let seed = 0; seed < 200; seed += 1) {
      const [a, b] = spreadSpawns(DEFAULT_ARENA, 2, new SeededRandom(seed));
      expect(Math.hypot(a!.x - b!.x, a!.y - b!.y)).toBeGreaterThan(500);
    }
  });

  it('keeps every count from 2 to 16 apart, off the walls and out of the obstacles', () => {
    for (let seed = 0; seed < 40; seed += 1) {
      for (let count = 2; count <= RULES.maxPlayers; count += 1) {
        const spots = spreadSpawns(DEFAULT_ARENA, count, new SeededRandom(seed * 100 + count));
        expect(spots).toHaveLength(count);
        // Never side by side: a body and a half of free space between any two even with sixteen players.
        expect(closestPair(spots)).toBeGreaterThan(2.5 * 2 * r);
        if (count <= 4) expect(closestPair(spots)).toBeGreaterThan(200);
        for (const p of spots) {
          expect(wallDistance(DEFAULT_ARENA, p)).toBeGreaterThanOrEqual(SPAWN_WALL_CLEARANCE * r);
          expect(DEFAULT_ARENA.obstacles.some((o) => circleOverlapsRect(p.x, p.y, r, o))).toBe(false);
        }
      }
    }
  });

  it('is deterministic for a random source and changes with it', () => {
    const one = spreadSpawns(DEFAULT_ARENA, 5, new SeededRandom(9));
    expect(spreadSpawns(DEFAULT_ARENA, 5, new SeededRandom(9))).toEqual(one);
    expect(spreadSpawns(DEFAULT_ARENA, 5, new SeededRandom(10))).not.toEqual(one);
  });

  it('moves a spot that lands in an obstacle, and clamps a hopeless one inside the walls', () => {
    const still: RandomSource = { next: () => 0, nextUint32: () => 0 };
    // Unjittered, the first of two spots is straight right of the centre: put a block there.
    const blocked: Arena = { width: 1600, height: 900, obstacles: [{ x: 1250, y: 380, width: 160, height: 140 }] };
    const [spot] = spreadSpawns(blocked, 2, still);
    expect(blocked.obstacles.some((o) => circleOverlapsRect(spot!.x, spot!.y, r, o))).toBe(false);
    const tiny: Arena = { width: 4 * r, height: 4 * r, obstacles: [] };
    for (const p of spreadSpawns(tiny, 3, still)) {
      expect(p.x).toBeGreaterThanOrEqual(r);
      expect(p.x).toBeLessThanOrEqual(tiny.width - r);
      expect(p.y).toBeGreaterThanOrEqual(r);
      expect(p.y).toBeLessThanOrEqual(tiny.height - r);
    }
  });

  it('places every round: createGame spawns the players on the ring, at rest', () => {
    const state = createGame({
      players: Array.from({ length: 6 }, (_, i) => ({ id: `p${i}`, name: `P${i}` })),
      seed: 3,
    });
    expect(closestPair(state.players)).toBeGreaterThan(6 * r);
    expect(state.players.every((p) => p.vx === 0 && p.vy === 0)).toBe(true);
  });
});
