import { GAME_TICK_DT } from '../../game/gameProtocol';
import { queueTurn } from './move';
import { ahead, onGrid, RULES } from './rules';
import type { DecodedCycle } from './snapshot';
import type { Cell, CycleInput, Heading } from './types';

/** The local rider as predicted: where its head is drawn, its heading and the corners it made since the snapshot. */
export interface PredictedCycle {
  /** The head's drawn position, in cells: between the previous cell and the current one by the move's progress. */
  readonly x: number;
  readonly y: number;
  readonly cell: Cell;
  readonly heading: Heading;
  readonly alive: boolean;
  /** Corners the replay made (not yet in any snapshot). */
  readonly corners: readonly Cell[];
}

/** The cell a cycle riding `heading` came from. */
export function behind(cell: Cell, heading: Heading): Cell {
  return ahead(cell, ((heading + 2) % 4) as Heading);
}

/** What the replay starts from: the newest snapshot's view of the world. */
export interface PredictionBase {
  readonly self: DecodedCycle;
  /** The snapshot's ticks since the last move, and its countdown seconds. */
  readonly sinceMove: number;
  readonly countdown: number;
  readonly width: number;
  readonly height: number;
  /** Whether a cell is taken by a known trail. */
  readonly blocked: (cell: Cell) => boolean;
}

/**
 * Replays the inputs the host has not acknowledged yet on the local rider, with the host's own rules (turns queued
 * or, in the 3-2-1, taken as the heading; a move every RULES.moveTicks ticks), so a turn shows the moment it is
 * pressed. A move into a wall or a known trail stops the prediction there: the host decides the crash.
 */
export function predictCycle(base: PredictionBase, pending: readonly CycleInput[]): PredictedCycle {
  const { self } = base;
  let cell: Cell = { x: self.x, y: self.y };
  let previous: Cell = cell;
  let heading = self.heading;
  let turns = self.turns;
  let sinceMove = base.sinceMove;
  let countdown = base.countdown;
  let alive = self.alive;
  let moved = false;
  const corners: Cell[] = [];
  for (const input of pending) {
    if (!alive) break;
    if (countdown > 0) {
      if (input.turn !== -1) heading = input.turn;
      countdown = Math.max(0, countdown - GAME_TICK_DT);
      continue;
    }
    if (input.turn !== -1) turns = queueTurn({ heading, turns }, input.turn);
    sinceMove += 1;
    if (sinceMove < RULES.moveTicks) continue;
    sinceMove = 0;
    const next = turns[0] ?? heading;
    turns = turns.slice(1);
    const target = ahead(cell, next);
    if (!onGrid(target, base.width, base.height) || base.blocked(target)) {
      alive = false;
      break;
    }
    if (next !== heading) corners.push(cell);
    heading = next;
    previous = cell;
    cell = target;
    moved = true;
  }
  if (!moved) previous = alive && countdown <= 0 && self.cells > 0 ? behind(cell, heading) : cell;
  const progress = alive ? sinceMove / RULES.moveTicks : 1;
  return {
    x: previous.x + (cell.x - previous.x) * progress,
    y: previous.y + (cell.y - previous.y) * progress,
    cell,
    heading,
    alive,
    corners,
  };
}
