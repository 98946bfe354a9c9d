import { describe, expect, it } from 'vitest';
import { createRendererRegistry } from '../../../renderer/src/game/rendererRegistry';
import { createRegistry } from '../../../shared/games/createRegistry';

const tag = { id: 'tag' };
const race = { id: 'race' };
const games = createRegistry([tag, race]);

describe('the renderer registry', () => {
  it('maps each game id to the module drawing that definition', () => {
    const modules = [
      { id: 'race', game: race, label: 'race renderer' },
      { id: 'tag', game: tag, label: 'tag renderer' },
    ];
    const registry = createRendererRegistry(modules, games);
    expect(registry.get('tag').label).toBe('tag renderer');
    expect(registry.get('race').game).toBe(race);
    expect(registry.find('chess')).toBeUndefined();
    expect(() => registry.get('chess')).toThrow('Unknown game “chess”');
  });

  it('fails at start when a game has no renderer, or a renderer no (or another) game', () => {
    expect(() => createRendererRegistry([{ id: 'tag', game: tag }], games)).toThrow('no renderer for the game(s) race');
    const chess = { id: 'chess' };
    expect(() =>
      createRendererRegistry(
        [
          { id: 'tag', game: tag },
          { id: 'race', game: race },
          { id: 'chess', game: chess },
        ],
        games,
      ),
    ).toThrow('renderer “chess” has no game in the game registry');
    expect(() => createRendererRegistry([{ id: 'tag', game: race }], games)).toThrow(/the ids must match/);
    expect(() =>
      createRendererRegistry(
        [
          { id: 'tag', game: { id: 'tag' } },
          { id: 'race', game: race },
        ],
        games,
      ),
    ).toThrow('renderer “tag” draws another definition than registered');
    expect(() =>
      createRendererRegistry(
        [
          { id: 'tag', game: tag },
          { id: 'tag', game: tag },
        ],
        games,
      ),
    ).toThrow(/registered twice/);
  });
});
