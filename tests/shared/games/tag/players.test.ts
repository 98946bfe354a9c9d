import { describe, expect, it } from 'vitest';
import { circleOverlapsRect } from '../../../../shared/games/tag/collision';
import { createGame } from '../../../../shared/games/tag/createGame';
import { addPlayer, removePlayer, sanitizeName } from '../../../../shared/games/tag/players';
import { PLAYER_COLOURS, RULES } from '../../../../shared/games/tag/rules';
import { currentIt } from '../../../../shared/games/tag/round';
import { withIt } from './fixtures';

const ids = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${i + 1}`, name: `P${i + 1}` }));

describe('addPlayer', () => {
  it('spawns sixteen players inside the arena, clear of obstacles and of each other', () => {
    const game = createGame({ players: ids(16), seed: 3 });
    const r = RULES.playerRadius;
    for (const p of game.players) {
      expect(p.x).toBeGreaterThanOrEqual(r);
      expect(p.x).toBeLessThanOrEqual(game.arena.width - r);
      expect(p.y).toBeGreaterThanOrEqual(r);
      expect(p.y).toBeLessThanOrEqual(game.arena.height - r);
      expect(game.arena.obstacles.some((o) => circleOverlapsRect(p.x, p.y, r, o))).toBe(false);
      for (const q of game.players) if (q !== p) expect(Math.hypot(p.x - q.x, p.y - q.y)).toBeGreaterThan(2 * r);
    }
    expect(new Set(game.players.map((p) => p.colour)).size).toBe(16);
  });

  it('refuses a seventeenth player, a duplicate id and a bad id', () => {
    const full = createGame({ players: ids(16), seed: 3 });
    expect(() => addPlayer(full, { id: 'x', name: 'X' })).toThrow(/full/);
    const game = createGame({ players: ids(2), seed: 3 });
    expect(() => addPlayer(game, { id: 'p1', name: 'again' })).toThrow(/already/);
    expect(() => addPlayer(game, { id: '', name: 'empty' })).toThrow(RangeError);
    expect(() => addPlayer(game, { id: 'much-too-long', name: 'long' })).toThrow(RangeError);
    expect(() => createGame({ players: ids(17), seed: 1 })).toThrow(/full/);
  });

  it('starts the round when the second player joins, and lets later players join it at score 0', () => {
    const one = createGame({ players: ids(1), seed: 9 });
    expect(one.phase).toBe('waiting');
    expect(currentIt(one)).toBeUndefined();
    const two = addPlayer(one, { id: 'p2', name: 'P2' });
    expect(two.phase).toBe('playing');
    expect(two.players.filter((p) => p.it)).toHaveLength(1);
    const three = addPlayer(two, { id: 'p3', name: 'P3' });
    expect(three.phase).toBe('playing');
    expect(three.players[2]).toMatchObject({ id: 'p3', score: 0, it: false });
  });

  it('keeps a valid requested colour, otherwise hands out an unused one', () => {
    const game = createGame({ players: [{ id: 'a', name: 'A', colour: PLAYER_COLOURS[1] }], seed: 1 });
    const next = addPlayer(addPlayer(game, { id: 'b', name: 'B', colour: 'red; background:url(x)' }), {
      id: 'c',
      name: 'C',
      colour: '#ABC',
    });
    expect(next.players.map((p) => p.colour)).toEqual([PLAYER_COLOURS[1], PLAYER_COLOURS[0], '#ABC']);
  });

  it('cleans names', () => {
    expect(sanitizeName('  Zoë \u0007 ', 'x')).toBe('Zoë');
    expect(sanitizeName('a'.repeat(40), 'x')).toHaveLength(RULES.maxNameLength);
    expect(sanitizeName('   ', 'Player 3')).toBe('Player 3');
    expect(sanitizeName(42, 'Player 3')).toBe('Player 3');
  });
});

describe('removePlayer', () => {
  it('ignores unknown ids', () => {
    const game = createGame({ players: ids(3), seed: 2 });
    expect(removePlayer(game, 'nobody')).toBe(game);
  });

  it('hands "it" to a remaining player when "it" leaves a running round', () => {
    const game = withIt(createGame({ players: ids(3), seed: 2 }), 'p1');
    const after = removePlayer(game, 'p1');
    expect(after.players.map((p) => p.id)).toEqual(['p2', 'p3']);
    expect(after.players.filter((p) => p.it)).toHaveLength(1);
    expect(after.phase).toBe('playing');
    expect(removePlayer(game, 'p1')).toEqual(after);
  });

  it('keeps "it" when someone else leaves', () => {
    const game = withIt(createGame({ players: ids(3), seed: 2 }), 'p1');
    expect(currentIt(removePlayer(game, 'p2'))?.id).toBe('p1');
  });

  it('goes back to waiting when too few players remain', () => {
    const game = createGame({ players: ids(2), seed: 2 });
    const after = removePlayer(game, 'p2');
    expect(after.phase).toBe('waiting');
    expect(after.players.some((p) => p.it)).toBe(false);
    expect(after.timeRemaining).toBe(after.roundDuration);
  });
});
