import { describe, expect, it } from 'vitest';
import { syntheticRoster, syntheticSnapshot } from '../../bench/renderPage/syntheticFeed';
import { DEFAULT_ARENA, RULES } from '../../shared/games/tag/rules';
import { decodeSnapshotPlayers, parseSnapshot } from '../../shared/games/tag/wire/snapshot';

// The render benchmark's fake feed must look like a real host's, or the benchmark measures something else.
describe('synthetic benchmark feed', () => {
  it('makes valid snapshots of 16 players inside the arena, with one "it" that rotates', () => {
    const its = new Set<string>();
    for (let tick = 0; tick < 60 * 60; tick += 37) {
      const snapshot = syntheticSnapshot(tick, 16, [tick]);
      expect(parseSnapshot(snapshot)).toEqual(snapshot);
      const players = decodeSnapshotPlayers(snapshot);
      expect(players).toHaveLength(16);
      const r = RULES.playerRadius;
      for (const p of players) {
        expect(p.x).toBeGreaterThanOrEqual(r - 0.01);
        expect(p.x).toBeLessThanOrEqual(DEFAULT_ARENA.width - r + 0.01);
        expect(p.y).toBeGreaterThanOrEqual(r - 0.01);
        expect(p.y).toBeLessThanOrEqual(DEFAULT_ARENA.height - r + 0.01);
      }
      const it = players.filter((p) => p.it);
      expect(it).toHaveLength(1);
      its.add(it[0]!.id);
      expect(players[0]!.lastProcessedSequence).toBe(tick === 0 ? 0 : tick);
      expect(players[1]!.lastProcessedSequence).toBeUndefined();
    }
    expect(its.size).toBeGreaterThan(5);
  });

  it('players move between snapshots, and the roster names every one', () => {
    const a = decodeSnapshotPlayers(syntheticSnapshot(100, 4));
    const b = decodeSnapshotPlayers(syntheticSnapshot(102, 4));
    expect(a.every((p, i) => p.x !== b[i]!.x || p.y !== b[i]!.y)).toBe(true);
    expect(syntheticRoster(3).map((e) => e.id)).toEqual(['0', '1', '2']);
    expect(new Set(syntheticRoster(16).map((e) => e.colour)).size).toBe(16);
  });
});
