import type { GamePhase, PlayerId } from '../gameDefinition';

export type { GamePhase, PlayerId } from '../gameDefinition';

/** A heading: 0 up, 1 right, 2 down, 3 left (clockwise; y grows downwards). */
export type Heading = 0 | 1 | 2 | 3;

/** A grid cell. */
export interface Cell {
  readonly x: number;
  readonly y: number;
}

/** One rider and its light cycle. */
export interface Cycle extends Cell {
  readonly id: PlayerId;
  readonly name: string;
  readonly colour: string;
  /** Its slot in join order (0–7): what its trail cells hold (slot + 1), kept when others leave. */
  readonly slot: number;
  readonly heading: Heading;
  /** Turns received and not yet taken, oldest first (at most RULES.turnQueue): two quick presses make a U-turn. */
  readonly turns: readonly Heading[];
  readonly alive: boolean;
  /** Seconds ridden since the start (frozen at the crash), shown beside the grid. */
  readonly survived: number;
  /** The tick it crashed on, null while riding: riders out on the same tick share a place. */
  readonly crashedAt: number | null;
  /** Cells ridden: the stat. */
  readonly cells: number;
  /** Where its trail bends: the spawn cell first, then each cell where it turned; the head follows the last. */
  readonly corners: readonly Cell[];
}

/** The whole round. */
export interface CyclesState {
  readonly width: number;
  readonly height: number;
  readonly phase: GamePhase;
  /** Host ticks so far. */
  readonly tick: number;
  /** Seconds since the round was created (the snapshot clock). */
  readonly elapsed: number;
  /** Seconds of the 3-2-1 still to run (nobody moves; turns are taken as the starting heading). */
  readonly countdown: number;
  readonly timeRemaining: number;
  /** Ticks since the last move (cycles move together, one cell each RULES.moveTicks ticks). */
  readonly sinceMove: number;
  readonly cycles: readonly Cycle[];
  /** `width × height` cells, row by row: 0 empty, else the slot + 1 of the cycle whose trail (or head) is there. */
  readonly trail: readonly number[];
  /** Who won (the last cycle riding; all who crashed in the final move on a draw; all still riding at the bell). */
  readonly winnerIds: readonly PlayerId[];
}

/** One tick of a rider's controls: the heading it asked for this tick, or -1 for none. */
export interface CycleInput {
  readonly sequence: number;
  readonly turn: Heading | -1;
}

/** What happened in a step. */
export type CyclesEvent =
  | { readonly type: 'crashed'; readonly id: PlayerId; readonly cause: 'wall' | 'trail' | 'head-on' }
  | { readonly type: 'round-over'; readonly winners: readonly PlayerId[] };
