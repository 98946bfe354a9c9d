import { describe, expect, it } from 'vitest';
import { applyMove } from '../../shared/games/tag/movement';
import { DEFAULT_ARENA, TAG_REACH } from '../../shared/games/tag/rules';
import type { PlayerBody, Vec2 } from '../../shared/games/tag/types';
import { chaseMove, chaseWaypoint } from './tagChase';
import { seededRandom } from './seededRandom';
import { circleOverlapsRect } from '../../shared/games/tag/collision';

const DT = 1 / 60;

/** Runs an IT body after an idle target with `steer` for at most `seconds`; the simulated seconds it took, or undefined. */
function chase(from: Vec2, target: Vec2, steer: (me: Vec2) => { moveX: number; moveY: number }, seconds = 20) {
  let body: PlayerBody = { ...from, vx: 0, vy: 0, it: true };
  for (let step = 0; step < seconds / DT; step += 1) {
    if (Math.hypot(target.x - body.x, target.y - body.y) < TAG_REACH) return step * DT;
    body = applyMove(body, { sequence: step + 1, ...steer(body), tag: false }, DT, DEFAULT_ARENA);
  }
  return undefined;
}

describe('tagChase', () => {
  it('runs straight at a target in the open', () => {
    expect(chaseWaypoint({ x: 100, y: 100 }, { x: 300, y: 120 })).toEqual({ x: 300, y: 120 });
    const move = chaseMove({ x: 100, y: 100 }, { x: 100, y: 400 });
    expect(move.moveX).toBeCloseTo(0);
    expect(move.moveY).toBeCloseTo(1);
  });

  it('goes round the centre pillar where a straight chase stays pressed against it (the rebinding lab’s stuck guest)', () => {
    // The positions a lab run ended with: the IT guest against the pillar's left face, the host level with it behind.
    const stuck = { x: 740, y: 437.65 };
    const host = { x: 1369.94, y: 437.65 };
    const straight = (me: Vec2) => {
      const length = Math.hypot(host.x - me.x, host.y - me.y) || 1;
      return { moveX: (host.x - me.x) / length, moveY: (host.y - me.y) / length };
    };
    expect(chase(stuck, host, straight)).toBeUndefined();
    const waypoint = chaseWaypoint(stuck, host);
    expect(waypoint).not.toEqual(host);
    expect(chase(stuck, host, (me) => chaseMove(me, host))).toBeLessThan(5);
  });

  it('reaches an idle target from anywhere to anywhere in the arena', () => {
    const random = seededRandom(30);
    const free = (): Vec2 => {
      for (;;) {
        const p = { x: 40 + random() * 1520, y: 40 + random() * 820 };
        if (!DEFAULT_ARENA.obstacles.some((o) => circleOverlapsRect(p.x, p.y, 21, o))) return p;
      }
    };
    const slow: string[] = [];
    for (let i = 0; i < 200; i += 1) {
      const [from, to] = [free(), free()];
      if (chase(from, to, (me) => chaseMove(me, to)) === undefined) slow.push(JSON.stringify({ from, to }));
    }
    expect(slow).toEqual([]);
  });
});
