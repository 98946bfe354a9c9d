import { describe, expect, it } from 'vitest';
import { createGame } from '../../../../shared/games/tag/createGame';
import { currentIt, startRound, winnersOf } from '../../../../shared/games/tag/round';
import { DEFAULT_ARENA, RULES } from '../../../../shared/games/tag/rules';
import { step, stepWithEvents } from '../../../../shared/games/tag/step';
import type { GameEvent, GameState } from '../../../../shared/games/tag/types';
import { input, openGame, player, withIt, withPlayers } from './fixtures';

const DT = 1 / 60;

function runFor(state: GameState, seconds: number, inputs = {}): { state: GameState; events: GameEvent[] } {
  const events: GameEvent[] = [];
  let s = state;
  for (let i = 0; i < Math.round(seconds / DT); i += 1) {
    const result = stepWithEvents(s, inputs, DT);
    s = result.state;
    events.push(...result.events);
  }
  return { state: s, events };
}

describe('scoring', () => {
  it('gives everyone but "it" the time that passes', () => {
    const { state } = runFor(withIt(openGame(), 'a'), 1);
    expect(player(state, 'a').score).toBe(0);
    expect(player(state, 'b').score).toBeCloseTo(1, 9);
    expect(player(state, 'c').score).toBeCloseTo(1, 9);
    expect(state.timeRemaining).toBeCloseTo(89, 9);
  });

  it('scores by the status at the start of each step, across a tag', () => {
    let state = withPlayers(withIt(openGame(), 'a'), { a: { x: 400, y: 450 }, b: { x: 420, y: 450 } });
    state = step(state, { a: input(0, 0, true) }, DT);
    expect(player(state, 'a').score).toBe(0);
    expect(player(state, 'b').score).toBeCloseTo(DT, 12);
    state = runFor(state, 0.5).state;
    expect(player(state, 'a').score).toBeCloseTo(0.5, 9);
    expect(player(state, 'b').score).toBeCloseTo(DT, 9);
  });

  it('does not score while waiting for players', () => {
    const alone = createGame({ players: [{ id: 'a', name: 'A' }], seed: 1 });
    expect(alone.phase).toBe('waiting');
    const later = runFor(alone, 1).state;
    expect(player(later, 'a').score).toBe(0);
    expect(later.timeRemaining).toBe(alone.roundDuration);
    expect(later.elapsed).toBeCloseTo(1, 9);
  });
});

describe('round end', () => {
  it('ends when the timer runs out, once, naming the highest scorer', () => {
    let state = withIt(openGame(['a', 'b'], 1), 'a');
    state = withPlayers(state, { a: { score: 0 }, b: { score: 0 } });
    const { state: ended, events } = runFor(state, 1.5);
    expect(ended.phase).toBe('ended');
    expect(ended.timeRemaining).toBe(0);
    expect(ended.winnerIds).toEqual(['b']);
    expect(events.filter((e) => e.type === 'roundEnded')).toEqual([{ type: 'roundEnded', winnerIds: ['b'] }]);
    expect(player(ended, 'b').score).toBeCloseTo(1, 9); // never more than the round length
  });

  it('freezes scores and tags after the end', () => {
    const ended = runFor(withIt(openGame(['a', 'b'], 0.5), 'a'), 0.6).state;
    const later = runFor(withPlayers(ended, { b: { x: ended.players[0]!.x + 10 } }), 1, { a: input(0, 0, true) }).state;
    expect(later.players.map((p) => p.score)).toEqual(ended.players.map((p) => p.score));
    expect(currentIt(later)?.id).toBe('a');
  });

  it('names every player on a tie', () => {
    const ended = runFor(withIt(openGame(['a', 'b', 'c'], 0.5), 'a'), 0.6).state;
    expect(ended.winnerIds).toEqual(['b', 'c']);
    expect(winnersOf([])).toEqual([]);
  });

  it('startRound resets scores, tags and timer, and picks a new "it" from the seed', () => {
    const ended = runFor(withIt(openGame(['a', 'b', 'c'], 0.5), 'a'), 0.6).state;
    const fresh = startRound(ended);
    expect(fresh.phase).toBe('playing');
    expect(fresh.timeRemaining).toBe(0.5);
    expect(fresh.winnerIds).toEqual([]);
    expect(fresh.players.every((p) => p.score === 0 && p.tags === 0)).toBe(true);
    const its = fresh.players.filter((p) => p.it);
    expect(its).toHaveLength(1);
    expect(its[0]?.cooldown).toBe(RULES.tagCooldown);
    expect(startRound(ended)).toEqual(fresh);
    expect(fresh.rngState).not.toBe(ended.rngState);
  });
});

describe('createGame', () => {
  it('is deterministic for a seed and varies with it', () => {
    const players = ['a', 'b', 'c', 'd'].map((id) => ({ id, name: id }));
    const one = createGame({ players, seed: 11 });
    expect(createGame({ players, seed: 11 })).toEqual(one);
    const other = createGame({ players, seed: 12 });
    expect(other.players.map((p) => [p.x, p.y])).not.toEqual(one.players.map((p) => [p.x, p.y]));
  });

  it('starts a round with exactly one "it" when there are enough players', () => {
    const game = createGame({
      players: [
        { id: 'a', name: 'A' },
        { id: 'b', name: 'B' },
      ],
      seed: 5,
    });
    expect(game).toMatchObject({ phase: 'playing', timeRemaining: RULES.roundDuration, tick: 0, elapsed: 0 });
    expect(game.arena).toBe(DEFAULT_ARENA);
    expect(game.players.filter((p) => p.it)).toHaveLength(1);
  });

  it('rejects a bad round length or arena', () => {
    expect(() => createGame({ seed: 1, roundDuration: 0 })).toThrow(RangeError);
    expect(() => createGame({ seed: 1, arena: { width: 10, height: 900, obstacles: [] } })).toThrow(RangeError);
    const badObstacle = { x: 0, y: 0, width: -5, height: 5 };
    expect(() => createGame({ seed: 1, arena: { width: 800, height: 600, obstacles: [badObstacle] } })).toThrow(
      RangeError,
    );
  });
});

describe('step input handling', () => {
  it('counts inputs for unknown players or of the wrong shape as dropped, and accepts a Map', () => {
    const game = openGame();
    const result = stepWithEvents(game, { zz: input(1, 0), a: 'bogus' as never, b: input(1, 0) }, DT);
    expect(result.droppedInputs).toBe(2);
    expect(player(result.state, 'b').vx).toBeGreaterThan(0);
    const viaMap = stepWithEvents(game, new Map([['b', input(1, 0)]]), DT);
    expect(viaMap.state).toEqual(step(game, { b: input(1, 0) }, DT));
    expect(viaMap.state.tick).toBe(1);
    expect(() => step(game, {}, -1)).toThrow(RangeError);
  });
});
