import { describe, expect, it } from 'vitest';
import type { CyclesFrame, ViewCycle } from '../../../../shared/games/light-cycles/clientView';
import { lightCyclesGame } from '../../../../shared/games/light-cycles/lightCyclesGame';
import { cyclesHudOf, sameCyclesHud } from '../../../../renderer/src/games/light-cycles/cyclesHud';

const look = (id: string) => ({ name: `Rider ${id}`, colour: '#22cc88' });
const rider = (id: string, alive: boolean, survived: number, self = false): ViewCycle => ({
  id,
  x: 1,
  y: 1,
  heading: 1,
  alive,
  winner: false,
  self,
  survived,
  cells: 3,
  trail: [[{ x: 1, y: 1 }]],
});
const frame = (cycles: ViewCycle[]): CyclesFrame => ({
  tick: 10,
  phase: 'playing',
  timeRemaining: 64.2,
  countdown: 0.4,
  width: 64,
  height: 36,
  cycles,
});

describe('the light-cycles HUD', () => {
  it('lists riders still riding first, longest ridden first, and counts them', () => {
    const hud = cyclesHudOf(frame([rider('0', false, 9), rider('1', true, 4.04, true), rider('2', true, 6)]), look);
    expect(hud.rows.map((r) => [r.id, r.alive, r.survived])).toEqual([
      ['2', true, 6],
      ['1', true, 4],
      ['0', false, 9],
    ]);
    expect(hud).toMatchObject({ riding: 2, secondsLeft: 65, countdown: 1, phase: 'playing' });
  });

  it('re-renders only on a visible change', () => {
    const a = cyclesHudOf(frame([rider('0', true, 1.01)]), look);
    expect(sameCyclesHud(a, cyclesHudOf(frame([rider('0', true, 1.04)]), look))).toBe(true);
    expect(sameCyclesHud(a, cyclesHudOf(frame([rider('0', false, 1.0)]), look))).toBe(false);
  });

  it('words the winner screen from the light-cycles definition', () => {
    const { results } = lightCyclesGame;
    expect([results.formatScore(1), results.formatScore(7), results.formatStat(1), results.formatStat(40)]).toEqual([
      '1 rider',
      '7 riders',
      '1 cell',
      '40 cells',
    ]);
    expect(results.scoreMeasure).toBe('outlasted');
    expect(results.headline?.(['You'], true)).toBe('You are the last cycle riding!');
    expect(results.headline?.(['Ada'], false)).toBe('Ada is the last cycle riding!');
    expect(results.headline?.(['Ada', 'Bo'], false)).toBe('A draw: Ada and Bo share the round!');
  });
});
