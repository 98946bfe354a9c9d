import type { z } from 'zod';
import type { WireFormat } from '../codec/wireFormat';

/** The types the generic game protocol (this folder) and every game definition (shared/games/) share. */

/** A player's id in a game: the lobby id as a string ('0' is the host), 1–8 characters. */
export type PlayerId = string;

/** What every input carries: its sequence (1, 2, …), by which the host orders, deduplicates and acknowledges. */
export interface GameInput {
  readonly sequence: number;
}

/** A point in the game's world units. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Where the host believes `targetId` was as `shooterId` saw it (lag compensation); undefined: use the current spot. */
export type PositionLookup = (targetId: PlayerId, shooterId: PlayerId) => Point | undefined;

/** How a game's inputs are checked, sent and queued. `W` is the compact wire form (e.g. a tuple). */
export interface GameInputCodec<I extends GameInput = GameInput, W = unknown> {
  /** Strict check of an input the local renderer hands over (object form). */
  readonly schema: z.ZodType<I>;
  /** Check of one input received from the network, in wire form; must bound the sequence to 1..MAX_INPUT_SEQUENCE. */
  readonly wireSchema: z.ZodType<W>;
  /**
   * Optional hand-written twin of `wireSchema` for the host's per-input hot path: the same accept/reject decision
   * and the same result (a fresh value), without zod's per-call overhead. Must agree with `wireSchema` exactly.
   */
  readonly readWire?: (value: unknown) => W | undefined;
  toWire(input: I): W;
  fromWire(wire: W): I;
  /** What a player without any input yet does (sequence 0). */
  readonly neutral: I;
  /** What a tick with no input waiting repeats: the last input without its one-shot actions (a press, a shot). */
  repeat(last: I): I;
  /** `into` with the one-shot actions of `from`, an input skipped or dropped unapplied, so no press is lost. */
  carry(from: I, into: I): I;
}

/** How a game's world snapshot is built on the host and checked on a guest. Snapshots must not use the key `g`. */
export interface GameSnapshotCodec<S = unknown, Snap extends object = object> {
  /** The snapshot of `state`; `acks` is each player's last processed input sequence (for client reconciliation). */
  of(state: S, acks: ReadonlyMap<PlayerId, number>): Snap;
  /** Validates a received snapshot; undefined when it is not one of this game's. */
  parse(value: unknown): Snap | undefined;
}

/**
 * How a game's per-tick messages (`game.input`, `game.snapshot`) travel between two LAN Party apps: binary formats
 * of the game's own (bump `version` whenever a format's fields or meaning change: it is part of the codec's name,
 * which both ends compare), or, said explicitly, compact JSON. Everything else of a game always travels as JSON.
 */
export type GameWire = BinaryGameWire | { readonly kind: 'json' };

/** A {@link GameWire} in binary: the game's own formats for its input's wire form and its snapshot. */
export interface BinaryGameWire {
  readonly kind: 'binary';
  readonly version: number;
  readonly input: WireFormat;
  readonly snapshot: WireFormat;
}

/** The wire of a game that declares no binary formats: its per-tick messages travel as compact JSON. */
export const JSON_GAME_WIRE: GameWire = { kind: 'json' };
