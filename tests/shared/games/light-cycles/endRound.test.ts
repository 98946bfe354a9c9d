import { describe, expect, it } from 'vitest';
import { lightCyclesGame } from '../../../../shared/games/light-cycles/lightCyclesGame';
import { endRoundNow } from '../../../../shared/games/light-cycles/step';
import { cycle, placed, ride, round } from './cyclesKit';

describe('light cycles: the host ends a round early', () => {
  it('ranks as the bell would: who still rides wins, the crashed keep their place', () => {
    // Three riders: '0' heads into the wall and is out after a move; '1' and '2' ride on.
    const start = placed(round(3), {
      '0': { x: 11, y: 1, heading: 1 },
      '1': { x: 0, y: 3, heading: 1 },
      '2': { x: 0, y: 6, heading: 1 },
    });
    const riding = ride(start, 2).state;
    expect(riding.phase).toBe('playing');
    expect(cycle(riding, '0').alive).toBe(false);
    const early = endRoundNow(riding);
    // The same round at its bell.
    const belled = ride({ ...riding, timeRemaining: 0.05 }, 1).state;
    expect(belled.phase).toBe('ended');
    expect(early).toMatchObject({ phase: 'ended', timeRemaining: 0, winnerIds: ['1', '2'] });
    expect(belled.winnerIds).toEqual(early.winnerIds);
    const standings = lightCyclesGame.standings(lightCyclesGame.endRound(riding));
    expect(standings.winners).toEqual(['1', '2']);
    expect(standings.scores.map((s) => [s.id, s.score])).toEqual([
      ['0', 0],
      ['1', 1],
      ['2', 1],
    ]);
    // Nothing moves after it.
    expect(ride(early, 2).state).toBe(early);
  });

  it('during the 3-2-1 everyone still rides: everyone wins', () => {
    const counting = round(2, { countdown: 3 });
    expect(counting.countdown).toBeGreaterThan(0);
    expect(endRoundNow(counting)).toMatchObject({ phase: 'ended', countdown: 0, winnerIds: ['0', '1'] });
  });

  it('leaves a round that is not playing as it is', () => {
    const waiting = round(1);
    expect(waiting.phase).toBe('waiting');
    expect(endRoundNow(waiting)).toBe(waiting);
    const over = ride({ ...round(2), timeRemaining: 0.05 }, 1).state;
    expect(over.phase).toBe('ended');
    expect(lightCyclesGame.endRound(over)).toBe(over);
  });
});
