import { createRegistry, type Registry } from '../../../shared/games/createRegistry';

/** What the check needs of a renderer module: its id and the definition it draws. */
interface DrawsGame {
  readonly id: string;
  readonly game: { readonly id: string };
}

/**
 * The renderer modules by id, checked against the game registry when the renderer loads: every game has exactly one
 * module, under the same id, drawing that very definition. A game registered without its renderer (or the other way
 * round) fails at start, not when a room picks it.
 */
export function createRendererRegistry<T extends DrawsGame>(
  modules: readonly T[],
  games: Pick<Registry<{ readonly id: string }>, 'ids' | 'find'>,
): Registry<T> {
  const registry = createRegistry(modules);
  for (const module of modules) {
    if (module.game.id !== module.id) {
      throw new RangeError(`renderer “${module.id}” draws the game “${module.game.id}”; the ids must match`);
    }
    const game = games.find(module.id);
    if (game === undefined) throw new RangeError(`renderer “${module.id}” has no game in the game registry`);
    if (game !== module.game) throw new RangeError(`renderer “${module.id}” draws another definition than registered`);
  }
  const missing = games.ids.filter((id) => !registry.has(id));
  if (missing.length > 0) throw new RangeError(`no renderer for the game(s) ${missing.join(', ')}`);
  return registry;
}
