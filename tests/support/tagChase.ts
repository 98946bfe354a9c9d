import { DEFAULT_ARENA, RULES } from '../../shared/games/tag/rules';
import type { Arena, Rect, Vec2 } from '../../shared/games/tag/types';

/** How far outside an obstacle's corner (beyond the body's radius) a detour aims, so the body clears it. */
const CORNER_PAD = 8;

/** Whether the segment a→b passes through `rect` grown by `grow` on every side (slab clipping). */
function crosses(a: Vec2, b: Vec2, rect: Rect, grow: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const axes = [
    [a.x, b.x - a.x, rect.x - grow, rect.x + rect.width + grow],
    [a.y, b.y - a.y, rect.y - grow, rect.y + rect.height + grow],
  ] as const;
  for (const [start, delta, low, high] of axes) {
    if (delta === 0) {
      if (start <= low || start >= high) return false;
      continue;
    }
    const ta = (low - start) / delta;
    const tb = (high - start) / delta;
    t0 = Math.max(t0, Math.min(ta, tb));
    t1 = Math.min(t1, Math.max(ta, tb));
    if (t0 >= t1) return false;
  }
  return true;
}

const distance = (a: Vec2, b: Vec2) => Math.hypot(b.x - a.x, b.y - a.y);

/**
 * Where a body at `me` should head next to reach `target`: the first hop of the shortest path through the
 * obstacles' corners (a visibility graph: few obstacles, so a plain Dijkstra over a handful of points).
 */
export function chaseWaypoint(me: Vec2, target: Vec2, arena: Arena = DEFAULT_ARENA): Vec2 {
  // A body touching a face is exactly `playerRadius` from it: grow by a little less, so touching is not "inside".
  const grow = RULES.playerRadius - 1;
  const clear = (a: Vec2, b: Vec2) => !arena.obstacles.some((o) => crosses(a, b, o, grow));
  if (clear(me, target)) return target;
  const pad = RULES.playerRadius + CORNER_PAD;
  const margin = RULES.playerRadius + 1;
  const corners = arena.obstacles
    .flatMap((o) => [
      { x: o.x - pad, y: o.y - pad },
      { x: o.x + o.width + pad, y: o.y - pad },
      { x: o.x - pad, y: o.y + o.height + pad },
      { x: o.x + o.width + pad, y: o.y + o.height + pad },
    ])
    .filter((c) => c.x >= margin && c.y >= margin && c.x <= arena.width - margin && c.y <= arena.height - margin);
  const points = [me, ...corners, target];
  const cost = points.map((_, i) => (i === 0 ? 0 : Infinity));
  const via = points.map(() => -1);
  const done = points.map(() => false);
  for (;;) {
    let next = -1;
    for (let i = 0; i < points.length; i += 1) if (!done[i] && (next < 0 || cost[i]! < cost[next]!)) next = i;
    if (next < 0 || cost[next] === Infinity) break;
    done[next] = true;
    for (let i = 0; i < points.length; i += 1) {
      const through = cost[next]! + distance(points[next]!, points[i]!);
      if (!done[i] && through < cost[i]! && clear(points[next]!, points[i]!)) {
        cost[i] = through;
        via[i] = next;
      }
    }
  }
  let hop = points.length - 1;
  if (via[hop] === -1) return target; // no way round (not in the standard arena): press on
  while (via[hop] !== 0) hop = via[hop]!;
  return points[hop]!;
}
/** A unit move towards `target` that goes round obstacles instead of pressing into them (a test player's chase). */
export function chaseMove(me: Vec2, target: Vec2, arena: Arena = DEFAULT_ARENA): { moveX: number; moveY: number } {
  const to = chaseWaypoint(me, target, arena);
  const dx = to.x - me.x;
  const dy = to.y - me.y;
  const length = Math.hypot(dx, dy) || 1;
  return { moveX: dx / length, moveY: dy / length };
}
