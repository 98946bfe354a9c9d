import { z } from 'zod';
import type { RosterEntry } from '../../../game/gameProtocol';
import { RULES } from '../rules';
import type { GamePhase, GameState, PlayerBody, PlayerId } from '../types';

/** Bits of {@link SnapshotPlayer}'s flags field. */
export const SNAPSHOT_FLAGS = { it: 1, winner: 2, immune: 4 } as const;

/**
 * One player in a snapshot, as a tuple to keep 16 players inside one 1200-byte datagram:
 * `[id, x, y, vx, vy, flags (SNAPSHOT_FLAGS bits), score, cooldown, lastProcessedSequence (-1 = none yet)]`.
 * With the `immune` flag the cooldown slot carries the tag-back immunity instead: only a player who is not "it" is
 * immune, and such a player's cooldown means nothing (it cannot tag), so the datagram does not grow.
 */
export type SnapshotPlayer = readonly [
  id: PlayerId,
  x: number,
  y: number,
  vx: number,
  vy: number,
  flags: number,
  score: number,
  cooldown: number,
  ack: number,
];

/** The compact, JSON-friendly world snapshot the host broadcasts each network tick. */
export interface GameSnapshot {
  /** Host tick. */
  readonly k: number;
  /** Host clock (GameState.elapsed, seconds): pass as `serverTime` to SnapshotInterpolator.add. */
  readonly t: number;
  readonly ph: GamePhase;
  /** Round seconds remaining. */
  readonly r: number;
  /** Seconds of the round's countdown still to run; sent only while it runs (absent: 0). */
  readonly c?: number;
  readonly p: readonly SnapshotPlayer[];
}

/** Last input sequence the host processed per player. */
export type SequenceLookup = ReadonlyMap<PlayerId, number> | Readonly<Record<PlayerId, number>>;

/** A snapshot player with named fields, as the client uses it (a PlayerBody, so it feeds applyMove directly). */
export interface DecodedSnapshotPlayer extends PlayerBody {
  readonly id: PlayerId;
  readonly score: number;
  readonly cooldown: number;
  /** Seconds it cannot be tagged (it just passed "it" on). */
  readonly immunity: number;
  readonly lastProcessedSequence: number | undefined;
  /** Among the winners of the finished round. */
  readonly winner: boolean;
}

/** Decimal places kept per quantity: sub-pixel positions, coarser everything else. */
export const SNAPSHOT_DECIMALS = { position: 2, velocity: 1, score: 1, cooldown: 2, clock: 3, timer: 1 } as const;

const MAX_SEQUENCE = 2 ** 32 - 1;

/** 10 ** decimals per quantity, computed once: the host rounds 8 numbers per player per snapshot. */
const SCALES = {
  position: 10 ** SNAPSHOT_DECIMALS.position,
  velocity: 10 ** SNAPSHOT_DECIMALS.velocity,
  score: 10 ** SNAPSHOT_DECIMALS.score,
  cooldown: 10 ** SNAPSHOT_DECIMALS.cooldown,
  clock: 10 ** SNAPSHOT_DECIMALS.clock,
  timer: 10 ** SNAPSHOT_DECIMALS.timer,
} as const;

function round(value: number, scale: number): number {
  return Math.round(value * scale) / scale + 0; // + 0 turns -0 into 0
}

function sequenceOf(lookup: SequenceLookup, id: PlayerId): number {
  const record = lookup as Readonly<Record<PlayerId, unknown>>;
  const value: unknown = lookup instanceof Map ? lookup.get(id) : Object.hasOwn(record, id) ? record[id] : undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_SEQUENCE ? value : -1;
}

/** Builds the broadcast snapshot; `lastProcessedSequenceByPlayer` supplies each player's acknowledgement. */
export function toSnapshot(state: GameState, lastProcessedSequenceByPlayer: SequenceLookup): GameSnapshot {
  const d = SCALES;
  // Winners exist only once the round has ended: no set to build on every other snapshot.
  const winners = state.winnerIds.length > 0 ? new Set(state.winnerIds) : undefined;
  const countdown = round(state.countdown, d.timer);
  const players = new Array<SnapshotPlayer>(state.players.length);
  for (let i = 0; i < players.length; i++) {
    const p = state.players[i] as GameState['players'][number];
    const immune = !p.it && round(p.immunity, d.cooldown) > 0;
    players[i] = [
      p.id,
      round(p.x, d.position),
      round(p.y, d.position),
      round(p.vx, d.velocity),
      round(p.vy, d.velocity),
      (p.it ? SNAPSHOT_FLAGS.it : 0) |
        (winners?.has(p.id) === true ? SNAPSHOT_FLAGS.winner : 0) |
        (immune ? SNAPSHOT_FLAGS.immune : 0),
      round(p.score, d.score),
      round(immune ? p.immunity : p.cooldown, d.cooldown),
      sequenceOf(lastProcessedSequenceByPlayer, p.id),
    ];
  }
  const k = state.tick;
  const t = round(state.elapsed, d.clock);
  const r = round(state.timeRemaining, d.timer);
  // The countdown only while it runs; keys in the same order either way.
  return countdown > 0
    ? { k, t, ph: state.phase, r, c: countdown, p: players }
    : { k, t, ph: state.phase, r, p: players };
}

/** The names and colours of every player, in join order. */
export function toRoster(state: GameState): RosterEntry[] {
  return state.players.map((p) => ({ id: p.id, name: p.name, colour: p.colour }));
}

const playerIdSchema = z.string().min(1).max(RULES.maxIdLength);
const snapshotSchema = z.object({
  k: z.number().int().nonnegative(),
  t: z.number().nonnegative(),
  ph: z.enum(['waiting', 'playing', 'ended']),
  r: z.number().nonnegative(),
  c: z.number().nonnegative().optional(),
  p: z
    .array(
      z.tuple([
        playerIdSchema,
        z.number(),
        z.number(),
        z.number(),
        z.number(),
        z
          .number()
          .int()
          .min(0)
          .max(SNAPSHOT_FLAGS.it | SNAPSHOT_FLAGS.winner | SNAPSHOT_FLAGS.immune),
        z.number(),
        z.number().nonnegative(),
        z.number().int().min(-1).max(MAX_SEQUENCE),
      ]),
    )
    .max(RULES.maxPlayers),
});

/** Validates an untrusted (received) snapshot; undefined if it is not a well-formed GameSnapshot. */
export function parseSnapshot(value: unknown): GameSnapshot | undefined {
  const result = snapshotSchema.safeParse(value);
  return result.success ? result.data : undefined;
}

/** The snapshot's players with named fields. */
export function decodeSnapshotPlayers(snapshot: GameSnapshot): DecodedSnapshotPlayer[] {
  return snapshot.p.map(([id, x, y, vx, vy, flags, score, slot, ack]) => {
    const immune = (flags & SNAPSHOT_FLAGS.immune) !== 0;
    return {
      id,
      x,
      y,
      vx,
      vy,
      it: (flags & SNAPSHOT_FLAGS.it) !== 0,
      score,
      cooldown: immune ? 0 : slot,
      immunity: immune ? slot : 0,
      lastProcessedSequence: ack < 0 ? undefined : ack,
      winner: (flags & SNAPSHOT_FLAGS.winner) !== 0,
    };
  });
}
