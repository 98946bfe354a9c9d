import { describe, expect, it } from 'vitest';
import { fallbackLook } from '../../../../renderer/src/game/playerLook';
import { resultsView } from '../../../../renderer/src/game/results/resultsModel';

const looks: Record<string, { name: string; colour: string }> = {
  '0': { name: 'Ada', colour: '#e6194b' },
  '1': { name: 'Bo', colour: '#3cb44b' },
  '2': { name: 'Cy', colour: '#4363d8' },
};
const look = (id: string) => looks[id] ?? fallbackLook(id);

describe('results model', () => {
  const results = (
    winners: string[],
    scores: [string, number, number][],
    reason: 'finished' | 'abandoned' = 'finished',
    holdSeconds = 5,
  ) => ({
    game: 7,
    reason,
    winners,
    scores: scores.map(([id, score, stat]) => ({ id, score, stat })),
    holdSeconds,
  });

  it('ranks by score with shared ranks for ties, and names the winner', () => {
    const view = resultsView(
      results(
        ['1'],
        [
          ['0', 20.5, 1],
          ['1', 44, 0],
          ['2', 20.5, 3],
        ],
      ),
      look,
      '0',
    );
    expect(view.headline).toBe('Bo wins!');
    expect(view.youWon).toBe(false);
    expect(view.rows.map((r) => [r.rank, r.name, r.stat, r.winner, r.self])).toEqual([
      [1, 'Bo', 0, true, false],
      [2, 'Cy', 3, false, false], // a tie on score goes to the higher stat
      [2, 'Ada', 1, false, true],
    ]);
  });

  it('celebrates the local winner, lists tied winners, and explains an abandoned round', () => {
    expect(resultsView(results(['0'], [['0', 9, 0]]), look, '0')).toMatchObject({ headline: 'You win!', youWon: true });
    expect(resultsView(results(['0', '1', '2'], []), look, '2').headline).toBe('Ada, Bo and You tie!');
    expect(resultsView(results([], [['0', 1, 0]], 'abandoned'), look, '0').headline).toMatch(/abandoned/);
    expect(resultsView(results([], []), look, '0').headline).toBe('Round over');
  });

  it('counts down from the hold the results came with, the host’s, not a constant of its own', () => {
    expect(resultsView(results(['0'], [], 'finished', 12), look, '0').holdSeconds).toBe(12);
    expect(resultsView(results(['0'], [], 'finished', 0), look, '0').holdSeconds).toBe(0);
  });

  it("words the headline the game's own way when its definition does", () => {
    const headline = (names: readonly string[], youWon: boolean) => `${names.join('+')}|${youWon}`;
    expect(resultsView(results(['0', '2'], []), look, '2', headline).headline).toBe('Ada+You|true');
    // Why a round stopped stays the stage's own words.
    expect(resultsView(results([], [], 'abandoned'), look, '0', headline).headline).toMatch(/abandoned/);
  });
});
