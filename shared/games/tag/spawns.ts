import type { RandomSource } from '../../random/prng';
import { circleOverlapsRect } from './collision';
import { RULES } from './rules';
import type { Arena, Vec2 } from './types';

/** The ring players start a round on, as shares of the arena's half-width and half-height. */
const RING = { x: 0.72, y: 0.68 } as const;

/** How far a spot may wander from its even share of the ring: a quarter of the angle between neighbours. */
const ANGLE_JITTER = 0.25;

/** Radius shares tried, in order, when a spot on the ring is inside an obstacle. */
const RADIUS_SHARES = [1, 0.86, 1.12, 0.72, 0.58, 0.44] as const;

/** Angle nudges tried per radius (in angles between neighbours) before giving up on a spot. */
const ANGLE_NUDGES = [0, 0.15, -0.15, 0.3, -0.3] as const;

/** Centre distance a spot keeps from the ones placed before it when it can: two bodies of free space. */
const SPAWN_SPACING = 6 * RULES.playerRadius;

/** Spawns keep this far from the walls, in player radii: never pressed against an edge. */
export const SPAWN_WALL_CLEARANCE = 3;

function clear(arena: Arena, x: number, y: number): boolean {
  const r = RULES.playerRadius;
  const wall = SPAWN_WALL_CLEARANCE * r;
  if (x < wall || y < wall || x > arena.width - wall || y > arena.height - wall) return false;
  return !arena.obstacles.some((o) => circleOverlapsRect(x, y, r * 1.5, o));
}

/**
 * Round-start spots for `count` players, in join order: evenly around a ring centred on the arena (so two players
 * start on opposite sides, never side by side), the whole ring turned by a random angle and each spot jittered a
 * little, using `rng` only (the same seed gives the same spots). A spot inside an obstacle moves in or out along
 * its ray, then sideways; an arena too cramped for any clear spot falls back to the unjittered ring point, clamped
 * inside the walls.
 */
export function spreadSpawns(arena: Arena, count: number, rng: RandomSource): Vec2[] {
  const cx = arena.width / 2;
  const cy = arena.height / 2;
  const rx = (arena.width / 2) * RING.x;
  const ry = (arena.height / 2) * RING.y;
  const share = (Math.PI * 2) / Math.max(1, count);
  const turn = rng.next() * Math.PI * 2;
  const spots: Vec2[] = [];
  for (let i = 0; i < count; i += 1) {
    const base = turn + i * share;
    const angle = base + (rng.next() * 2 - 1) * ANGLE_JITTER * share;
    const radius = 0.9 + rng.next() * 0.1;
    const ring = { cx, cy, rx: rx * radius, ry: ry * radius };
    spots.push(placed(arena, ring, angle, share, spots) ?? fallback(arena, cx, cy, rx, ry, base));
  }
  return spots;
}

/** The first clear candidate at least SPAWN_SPACING from the spots already taken, else the clear one farthest. */
function placed(
  arena: Arena,
  ring: { cx: number; cy: number; rx: number; ry: number },
  angle: number,
  share: number,
  taken: readonly Vec2[],
): Vec2 | undefined {
  let best: Vec2 | undefined;
  let bestGap = -1;
  for (const radius of RADIUS_SHARES) {
    for (const nudge of ANGLE_NUDGES) {
      const a = angle + nudge * share;
      const x = ring.cx + Math.cos(a) * ring.rx * radius;
      const y = ring.cy + Math.sin(a) * ring.ry * radius;
      if (!clear(arena, x, y)) continue;
      let gap = Infinity;
      for (const t of taken) gap = Math.min(gap, Math.hypot(t.x - x, t.y - y));
      if (gap >= SPAWN_SPACING) return { x, y };
      if (gap > bestGap) [best, bestGap] = [{ x, y }, gap];
    }
  }
  return best;
}

function fallback(arena: Arena, cx: number, cy: number, rx: number, ry: number, angle: number): Vec2 {
  const r = RULES.playerRadius;
  const clamp = (v: number, max: number) => Math.min(max - r, Math.max(r, v));
  return { x: clamp(cx + Math.cos(angle) * rx, arena.width), y: clamp(cy + Math.sin(angle) * ry, arena.height) };
}
