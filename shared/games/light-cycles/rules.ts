import type { Cell, Heading } from './types';

/** Light cycles' fixed rules: a 16:9 grid, ten cells a second, a short 3-2-1. */
export const RULES = {
  width: 64,
  height: 36,
  /** Host ticks (60 Hz) per one-cell move: 10 cells a second. */
  moveTicks: 6,
  countdown: 2,
  minPlayers: 2,
  maxPlayers: 8,
  roundDuration: 120,
  turnQueue: 3,
} as const;

/** The cell one step along `heading`. */
export function ahead(cell: Cell, heading: Heading): Cell {
  return {
    x: cell.x + (heading === 1 ? 1 : heading === 3 ? -1 : 0),
    y: cell.y + (heading === 2 ? 1 : heading === 0 ? -1 : 0),
  };
}

/** Whether `b` points straight back along `a` (a cycle cannot reverse into its own trail). */
export function isReverse(a: Heading, b: Heading): boolean {
  return (a + 2) % 4 === b;
}

/** Whether a value is a heading. */
export function isHeading(value: unknown): value is Heading {
  return value === 0 || value === 1 || value === 2 || value === 3;
}

/** Whether `cell` lies on a `width × height` grid. */
export function onGrid(cell: Cell, width: number, height: number): boolean {
  return cell.x >= 0 && cell.y >= 0 && cell.x < width && cell.y < height;
}
