import { describe, expect, it } from 'vitest';
import { endRoundNow } from '../../../../shared/games/tag/round';
import { stepWithEvents } from '../../../../shared/games/tag/step';
import { createTagGame } from '../../../../shared/games/tag/tagGame';
import type { GameState } from '../../../../shared/games/tag/types';
import { OPEN_ARENA, openGame, player, withIt } from './fixtures';

const DT = 1 / 60;

function runFor(state: GameState, seconds: number): GameState {
  let s = state;
  for (let i = 0; i < Math.round(seconds / DT); i += 1) s = stepWithEvents(s, {}, DT).state;
  return s;
}

describe('tag: the host ends a round early', () => {
  it('ends it as the bell would: the seconds not "it" so far are the scores, the most of them win', () => {
    const early = endRoundNow(runFor(withIt(openGame(['a', 'b', 'c'], 90), 'a'), 10));
    // The same ten seconds played to the bell of a ten-second round.
    const belled = runFor(withIt(openGame(['a', 'b', 'c'], 10), 'a'), 10);
    expect(belled.phase).toBe('ended');
    expect(early).toMatchObject({ phase: 'ended', timeRemaining: 0, winnerIds: belled.winnerIds });
    expect(early.winnerIds).toEqual(['b', 'c']);
    expect(player(early, 'a').score).toBe(0);
    expect(player(early, 'b').score).toBeCloseTo(player(belled, 'b').score, 9);
    expect(player(early, 'b').score).toBeCloseTo(10, 6);
  });

  it('keeps the results: later steps score nobody and leave the winners', () => {
    const ended = endRoundNow(runFor(withIt(openGame(), 'a'), 2));
    const later = runFor(ended, 1);
    expect(later.phase).toBe('ended');
    expect(later.winnerIds).toEqual(ended.winnerIds);
    expect(later.players.map((p) => p.score)).toEqual(ended.players.map((p) => p.score));
  });

  it('during the 3-2-1 nobody has scored: everyone ties', () => {
    const counting = openGame(['a', 'b'], 90, 3);
    expect(counting.countdown).toBeGreaterThan(0);
    const ended = endRoundNow(counting);
    expect(ended).toMatchObject({ phase: 'ended', countdown: 0, timeRemaining: 0, winnerIds: ['a', 'b'] });
  });

  it('leaves a round that is not playing as it is', () => {
    const waiting = openGame(['a']);
    expect(waiting.phase).toBe('waiting');
    expect(endRoundNow(waiting)).toBe(waiting);
    const over = runFor(withIt(openGame(['a', 'b'], 1), 'a'), 1);
    expect(over.phase).toBe('ended');
    expect(endRoundNow(over)).toBe(over);
  });

  it('is the definition’s endRound, and its standings say the results at that moment', () => {
    const game = createTagGame({ arena: OPEN_ARENA, countdown: 0 });
    let state = game.create({
      players: [
        { id: 'a', name: 'A', colour: '#ff0000' },
        { id: 'b', name: 'B', colour: '#00ff00' },
      ],
      seed: 3,
      roundDuration: 90,
    });
    for (let i = 0; i < 120; i += 1) state = game.step(state, new Map(), DT, { rewound: undefined }).state;
    const ended = game.endRound(state);
    expect(game.phase(ended)).toBe('ended');
    const it = state.players.find((p) => p.it)!.id;
    const standings = game.standings(ended);
    expect(standings.winners).toEqual(state.players.filter((p) => p.id !== it).map((p) => p.id));
    expect(standings.scores.find((s) => s.id === it)?.score).toBe(0);
    expect(standings.scores.find((s) => s.id !== it)?.score).toBeCloseTo(2, 6);
  });
});
