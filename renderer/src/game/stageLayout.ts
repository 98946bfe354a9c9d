/** Where the game stage puts its side panels (scores, net graph, controls): beside the arena, or below it. */
export type SidePlacement = 'beside' | 'below';

/** What {@link stageLayout} decides, CSS pixels. */
export interface StageLayout {
  /** The arena's box (the canvas), the arena's aspect ratio, as large as the space allows. */
  readonly arena: { readonly width: number; readonly height: number };
  readonly side: SidePlacement;
}

/** The space and the rules of {@link stageLayout}, CSS pixels. */
export interface StageSpace {
  /** Width of the stage. */
  readonly width: number;
  /** Height the arena may take (the visible stage minus the HUD). */
  readonly height: number;
  /** Arena width ÷ height, of the canvas box (its drawn margin included). */
  readonly aspect: number;
  /** Width of the side column when it sits beside the arena. */
  readonly sideWidth: number;
  /** Space between arena and side column. */
  readonly gap: number;
  /**
   * The side column may take width from the arena only while the arena stays at least this wide (where the players
   * are drawn large enough); below that the panels move under the arena.
   */
  readonly besideMinArenaWidth: number;
  /** The arena is never laid out smaller than this wide (the page scrolls instead). */
  readonly minArenaWidth: number;
}

function fit(width: number, height: number, aspect: number): { width: number; height: number } {
  const w = Math.max(0, Math.min(width, height * aspect));
  return { width: Math.floor(w), height: Math.floor(w / aspect) };
}

/**
 * The arena as large as the stage allows at its aspect ratio, with the side panels beside it when that costs the
 * arena nothing (the stage is wider than the height allows the arena to be) or leaves it at least
 * `besideMinArenaWidth` wide; otherwise the panels go below. Pure, whole pixels.
 */
export function stageLayout(space: StageSpace): StageLayout {
  const { aspect, sideWidth, gap } = space;
  const floor = (box: { width: number; height: number }) =>
    box.width >= space.minArenaWidth ? box : fit(space.minArenaWidth, Infinity, aspect);
  const full = fit(space.width, space.height, aspect);
  const beside = fit(space.width - sideWidth - gap, space.height, aspect);
  if (beside.width >= Math.min(full.width, space.besideMinArenaWidth)) return { arena: floor(beside), side: 'beside' };
  return { arena: floor(full), side: 'below' };
}
