import { describe, expect, it } from 'vitest';
import { createGame } from '../../../../shared/games/tag/createGame';
import { removePlayer } from '../../../../shared/games/tag/players';
import { currentIt, startRound } from '../../../../shared/games/tag/round';
import { RULES } from '../../../../shared/games/tag/rules';
import { stepWithEvents } from '../../../../shared/games/tag/step';
import type { GameState } from '../../../../shared/games/tag/types';
import { input, OPEN_ARENA, player, withPlayers } from './fixtures';

const DT = 1 / 60;

function counting(countdown: number = RULES.roundCountdown): GameState {
  return createGame({
    players: [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B' },
    ],
    seed: 5,
    arena: OPEN_ARENA,
    countdown,
  });
}

describe('the round countdown', () => {
  it('starts every round with RULES.roundCountdown (3 s), "it" already chosen', () => {
    expect(RULES.roundCountdown).toBe(3);
    const state = counting();
    expect(state).toMatchObject({ phase: 'playing', countdown: 3, roundCountdown: 3, timeRemaining: 90 });
    expect(currentIt(state)).toBeDefined();
    const again = startRound({ ...state, countdown: 0, phase: 'ended' });
    expect(again.countdown).toBe(3);
  });

  it('freezes the game: inputs and tags are ignored, nobody scores, the round clock waits', () => {
    const start = counting();
    const itId = currentIt(start)!.id;
    const other = itId === 'a' ? 'b' : 'a';
    // "it" right next to the other player, pressing tag, both pushing their sticks.
    let state = withPlayers(start, { [itId]: { x: 400, y: 450, cooldown: 0 }, [other]: { x: 420, y: 450 } });
    const inputs = { [itId]: input(1, 0, true), [other]: input(0, 1) };
    const ticks = Math.round(RULES.roundCountdown / DT);
    for (let i = 0; i < ticks - 1; i += 1) {
      const result = stepWithEvents(state, inputs, DT);
      expect(result.events).toEqual([]);
      state = result.state;
    }
    expect(state.countdown).toBeGreaterThan(0);
    expect(player(state, itId)).toMatchObject({ x: 400, y: 450, vx: 0, vy: 0, it: true, score: 0 });
    expect(player(state, other)).toMatchObject({ x: 420, y: 450, score: 0, it: false });
    expect(state.timeRemaining).toBe(90);
    expect(state.elapsed).toBeCloseTo((ticks - 1) * DT, 9);
    expect(state.tick).toBe(ticks - 1);
    state = stepWithEvents(state, inputs, DT).state;
    expect(state.countdown).toBe(0);
    // The first step after it moves, scores and tags.
    const go = stepWithEvents(state, inputs, DT);
    expect(player(go.state, itId).x).toBeGreaterThan(400);
    expect(go.state.timeRemaining).toBeLessThan(90);
    expect(go.events).toEqual([{ type: 'tag', taggerId: itId, targetId: other }]);
  });

  it('can be switched off, and refuses a negative or non-finite length', () => {
    expect(counting(0).countdown).toBe(0);
    expect(() => counting(-1)).toThrow(RangeError);
    expect(() => counting(Number.NaN)).toThrow(RangeError);
  });

  it('is cleared when the game goes back to waiting', () => {
    const state = counting();
    expect(removePlayer(state, 'a')).toMatchObject({ phase: 'waiting', countdown: 0 });
  });
});
