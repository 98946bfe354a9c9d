import { z } from 'zod';
import type { PlayerId } from '../gameDefinition';
import { isHeading } from './rules';
import type { Cell, CyclesState, GamePhase, Heading } from './types';

/** Bits of a snapshot cycle's flags. */
export const CYCLE_FLAGS = { alive: 1, winner: 2 } as const;

/** Corners each snapshot repeats per cycle: a client that lost a few snapshots in a row still has every bend. */
export const CORNER_WINDOW = 6;

/**
 * One cycle in a snapshot: `[id, x, y, heading, flags, survived, cells, ack (-1: none yet), turns (queued turns:
 * count | t0 << 2 | t1 << 4 | t2 << 6), corners (how many so far), recent (the last ≤ CORNER_WINDOW as x, y, …)]`.
 */
export type SnapshotCycle = readonly [
  id: PlayerId,
  x: number,
  y: number,
  heading: number,
  flags: number,
  survived: number,
  cells: number,
  ack: number,
  turns: number,
  corners: number,
  recent: readonly number[],
];

/** The world each network tick: 8 riders stay under 800 bytes of JSON, and far under in binary. */
export interface CyclesSnapshot {
  readonly k: number;
  /** Host clock, seconds (3 decimals). */
  readonly t: number;
  readonly ph: GamePhase;
  /** Round seconds left (1 decimal). */
  readonly r: number;
  /** The 3-2-1's seconds left, only while it runs (1 decimal). */
  readonly c?: number;
  /** Ticks since the last move. */
  readonly m: number;
  readonly p: readonly SnapshotCycle[];
}

const round = (value: number, decimals: number): number => {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale + 0;
};

/** Packs up to three queued turns into one byte. */
export function packTurns(turns: readonly Heading[]): number {
  return turns.reduce<number>((packed, turn, i) => packed | (turn << (2 + 2 * i)), turns.length);
}

/** The queued turns of a packed byte. */
export function unpackTurns(packed: number): Heading[] {
  const count = Math.min(3, packed & 3);
  return Array.from({ length: count }, (_, i) => ((packed >> (2 + 2 * i)) & 3) as Heading);
}

/** The snapshot of `state`; `acks` is each rider's last processed input sequence. */
export function toSnapshot(state: CyclesState, acks: ReadonlyMap<PlayerId, number>): CyclesSnapshot {
  const winners = new Set(state.winnerIds);
  const p = state.cycles.map((c): SnapshotCycle => {
    const recent = c.corners.slice(-CORNER_WINDOW).flatMap((corner) => [corner.x, corner.y]);
    const flags = (c.alive ? CYCLE_FLAGS.alive : 0) | (winners.has(c.id) ? CYCLE_FLAGS.winner : 0);
    const ack = acks.get(c.id) ?? -1;
    return [
      c.id,
      c.x,
      c.y,
      c.heading,
      flags,
      round(c.survived, 1),
      c.cells,
      ack,
      packTurns(c.turns),
      c.corners.length,
      recent,
    ];
  });
  const snapshot = { k: state.tick, t: round(state.elapsed, 3), ph: state.phase, r: round(state.timeRemaining, 1) };
  return state.countdown > 0
    ? { ...snapshot, c: round(state.countdown, 1), m: state.sinceMove, p }
    : { ...snapshot, m: state.sinceMove, p };
}

const byte = z.number().int().min(0).max(255);
const cycleSchema = z.tuple([
  z.string().min(1).max(8),
  byte,
  byte,
  z.number().int().min(0).max(3),
  z.number().int().min(0).max(3),
  z.number().min(0).max(1e5),
  z.number().int().min(0).max(1e7),
  z
    .number()
    .int()
    .min(-1)
    .max(2 ** 32 - 2),
  byte,
  z.number().int().min(1).max(65_535),
  z
    .array(byte)
    .max(2 * CORNER_WINDOW)
    .refine((a) => a.length % 2 === 0, 'x, y pairs'),
]);
const snapshotSchema = z.object({
  k: z
    .number()
    .int()
    .nonnegative()
    .max(2 ** 32 - 1),
  t: z.number().nonnegative().max(1e6),
  ph: z.enum(['waiting', 'playing', 'ended']),
  r: z.number().nonnegative().max(1e4),
  c: z.number().nonnegative().max(60).optional(),
  m: z.number().int().min(0).max(255),
  p: z.array(cycleSchema).max(8),
});

/** A received snapshot checked, or undefined when it is not a light-cycles snapshot. */
export function parseSnapshot(value: unknown): CyclesSnapshot | undefined {
  const parsed = snapshotSchema.safeParse(value);
  return parsed.success ? (parsed.data as CyclesSnapshot) : undefined;
}

/** A snapshot cycle with named fields, as the client view uses it. */
export interface DecodedCycle extends Cell {
  readonly id: PlayerId;
  readonly heading: Heading;
  readonly alive: boolean;
  readonly winner: boolean;
  readonly survived: number;
  readonly cells: number;
  /** Undefined before the host processed any input of this rider. */
  readonly ack: number | undefined;
  readonly turns: readonly Heading[];
  /** How many corners the cycle has so far, and the last few of them (the first is number `corners - recent.length`). */
  readonly corners: number;
  readonly recent: readonly Cell[];
}

/** The snapshot's cycles with named fields. */
export function decodeCycles(snapshot: CyclesSnapshot): DecodedCycle[] {
  return snapshot.p.map(([id, x, y, heading, flags, survived, cells, ack, turns, corners, recent]) => ({
    id,
    x,
    y,
    heading: isHeading(heading) ? heading : 0,
    alive: (flags & CYCLE_FLAGS.alive) !== 0,
    winner: (flags & CYCLE_FLAGS.winner) !== 0,
    survived,
    cells,
    ack: ack < 0 ? undefined : ack,
    turns: unpackTurns(turns),
    corners,
    recent: Array.from({ length: recent.length / 2 }, (_, i) => ({ x: recent[2 * i]!, y: recent[2 * i + 1]! })),
  }));
}
