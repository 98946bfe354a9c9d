import { PLAYER_COLOURS, DEFAULT_ARENA, RULES } from '../../shared/games/tag/rules';
import type { RosterEntry } from '../../shared/game/gameProtocol';
import { SNAPSHOT_FLAGS, type GameSnapshot, type SnapshotPlayer } from '../../shared/games/tag/wire/snapshot';

/** Seconds each player stays "it" in the synthetic round. */
const IT_TURN = 3;

/** A roster of `count` players named P0…, in the game's colours. */
export function syntheticRoster(count: number): RosterEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    id: String(i),
    name: `Player ${i}`,
    colour: PLAYER_COLOURS[i % PLAYER_COLOURS.length]!,
  }));
}

/** Where synthetic player `i` is at host time `t`: a Lissajous path of its own, inside the arena walls. */
export function syntheticPosition(i: number, t: number): { x: number; y: number; vx: number; vy: number } {
  const r = RULES.playerRadius;
  const ax = (DEFAULT_ARENA.width - 2 * r) / 2;
  const ay = (DEFAULT_ARENA.height - 2 * r) / 2;
  const wx = 0.35 + 0.05 * (i % 5);
  const wy = 0.45 + 0.04 * (i % 7);
  const phase = i * 0.7;
  return {
    x: r + ax * (1 + Math.sin(wx * t + phase)),
    y: r + ay * (1 + Math.sin(wy * t + phase * 1.3)),
    vx: ax * wx * Math.cos(wx * t + phase),
    vy: ay * wy * Math.cos(wy * t + phase * 1.3),
  };
}

/**
 * The snapshot a host would send at `tick` (60 Hz) for `count` players moving on their paths, player
 * `(tick / 60 / IT_TURN) % count` "it", scores growing for everyone else; `acks[i]` is player i's last input.
 */
export function syntheticSnapshot(tick: number, count: number, acks: readonly number[] = []): GameSnapshot {
  const t = tick / 60;
  const it = Math.floor(t / IT_TURN) % count;
  const round2 = (v: number) => Math.round(v * 100) / 100;
  const p: SnapshotPlayer[] = Array.from({ length: count }, (_, i) => {
    const at = syntheticPosition(i, t);
    const score = Math.round(t * 10 * ((count - 1) / count)) / 10;
    return [
      String(i),
      round2(at.x),
      round2(at.y),
      Math.round(at.vx * 10) / 10,
      Math.round(at.vy * 10) / 10,
      i === it ? SNAPSHOT_FLAGS.it : 0,
      score,
      i === it ? round2(Math.max(0, RULES.tagCooldown - (t % IT_TURN))) : 0,
      acks[i] ?? -1,
    ];
  });
  return { k: tick, t: Math.round(t * 1000) / 1000, ph: 'playing', r: Math.max(0, 90 - Math.floor(t * 10) / 10), p };
}
