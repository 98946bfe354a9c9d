import type { PlayerId } from './gameTypes';

/** Message types of every networked game on the gale.net transport (the game's own data rides inside). */
export const GameMessage = {
  /** Guest → host, UNRELIABLE: the last few inputs (redundancy against loss). */
  INPUT: 'game.input',
  /** Host → guests, UNRELIABLE: the world, every tick or few (the room's snapshot rate). */
  SNAPSHOT: 'game.snapshot',
  /** Host → guests, RELIABLE_ORDERED: names and colours, in parts of ROSTER_PART_SIZE players. */
  ROSTER: 'game.roster',
  /** Host → guests, RELIABLE_ORDERED: the round is over. */
  RESULTS: 'game.results',
} as const;

/** One of the {@link GameMessage} types. */
export type GameMessage = (typeof GameMessage)[keyof typeof GameMessage];

/** Fixed simulation rate of host and client prediction; both must use it for prediction to match. */
export const GAME_TICK_RATE = 60;
/** Seconds per simulation tick. */
export const GAME_TICK_DT = 1 / GAME_TICK_RATE;
/**
 * Ticks per snapshot of the old fixed rate (30 Hz), which a host may still be told to keep (GameHostOptions
 * .snapshotEvery, the game service's snapshotsPerSecond); by default the host chooses per room, 60 a second on a LAN
 * (main/game/host/snapshotRate.ts).
 */
export const SNAPSHOT_EVERY_TICKS = 2;

/** Input sequences are 1..this: 77 hours at 60 Hz, and at most 8 digits so a 16-player snapshot fits 1200 bytes. */
export const MAX_INPUT_SEQUENCE = 2 ** 24 - 1;
/** Most inputs one `game.input` message may carry (redundant copies plus a catch-up burst). */
export const MAX_INPUTS_PER_MESSAGE = 16;
/** Inputs the client repeats in each message: losing five datagrams in a row at 5% loss is a 1-in-3-million event. */
export const INPUT_REDUNDANCY = 5;
/** The host clamps a reported interpolation delay to this (seconds), so a client cannot rewind arbitrarily. */
export const MAX_REPORTED_INTERPOLATION_DELAY = 0.25;
/** Game session ids are 1..this (short on the wire; a new id per game keeps stale messages out). */
export const MAX_GAME_ID = 65_535;
/** Longest round a host runs (seconds); it bounds scores and host times, so snapshots stay within 1200 bytes. */
export const MAX_ROUND_DURATION = 600;

/** Longest results hold a host may announce, seconds. */
export const MAX_RESULTS_HOLD_SECONDS = 600;
/** Most players in any game (a room's capacity, the host included). */
export const MAX_GAME_PLAYERS = 16;
/** Longest player id on the wire: the lobby id as a string, kept short so a 16-player snapshot fits one datagram. */
export const MAX_PLAYER_ID_LENGTH = 8;
/** Players per `game.roster` part: 4 worst-case entries (8-char id, 16 astral-plane name characters) stay < 1 kB. */
export const ROSTER_PART_SIZE = 4;

/** Payload of `game.input`; `W` is the game's wire form of one input. */
export interface InputPayload<W = unknown> {
  /** Game session id. */
  readonly g: number;
  /** The sender's interpolation delay in seconds (how far in the past it draws other players). */
  readonly d: number;
  /** Inputs, oldest first. */
  readonly i: readonly W[];
}

/** Names and colours change rarely, so they travel separately (reliably) from the per-tick snapshot. */
export interface RosterEntry {
  readonly id: PlayerId;
  readonly name: string;
  readonly colour: string;
}

/** Payload of `game.roster`: part `part` of `parts` of the player list. */
export interface RosterPayload {
  readonly g: number;
  readonly part: number;
  readonly parts: number;
  readonly p: readonly (readonly [id: PlayerId, name: string, colour: string])[];
}

/** Why a round ended: the timer ran out, or too few players were left. */
export type RoundEndReason = 'finished' | 'abandoned';

/** Payload of `game.results`. */
export interface ResultsPayload {
  readonly g: number;
  readonly why: RoundEndReason;
  /** Winner ids. */
  readonly w: readonly PlayerId[];
  /** `[id, score (1 decimal), stat (whole count)]` per player, in join order (see GameScore). */
  readonly s: readonly (readonly [id: PlayerId, score: number, stat: number])[];
  /** Seconds the room shows these results before it returns to the lobby (absent from older hosts). */
  readonly hold?: number;
}

/** The complete player list of a game, as the renderer uses it. */
export interface GameRoster {
  readonly game: number;
  readonly players: readonly RosterEntry[];
}

/** One player's line on the results screen. */
export interface PlayerResult {
  readonly id: PlayerId;
  readonly score: number;
  readonly stat: number;
}

/** The end of a round, as the renderer uses it. */
export interface GameResults {
  readonly game: number;
  readonly reason: RoundEndReason;
  readonly winners: readonly PlayerId[];
  readonly scores: readonly PlayerResult[];
  /** Seconds the room shows the results before it returns to the lobby, when the host said. */
  readonly holdSeconds?: number;
}

/** Whether `value` is a valid input sequence (a whole number 1..MAX_INPUT_SEQUENCE). */
export function isInputSequence(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_INPUT_SEQUENCE;
}

/** Splits a roster into `game.roster` parts of ROSTER_PART_SIZE (at least one part, even when empty). */
export function rosterParts(game: number, roster: readonly RosterEntry[]): RosterPayload[] {
  const parts = Math.max(1, Math.ceil(roster.length / ROSTER_PART_SIZE));
  return Array.from({ length: parts }, (_, part) => ({
    g: game,
    part,
    parts,
    p: roster.slice(part * ROSTER_PART_SIZE, (part + 1) * ROSTER_PART_SIZE).map((e) => [e.id, e.name, e.colour]),
  }));
}

/** A results payload as the renderer uses it. */
export function fromResultsPayload(payload: ResultsPayload): GameResults {
  return {
    game: payload.g,
    reason: payload.why,
    winners: [...payload.w],
    scores: payload.s.map(([id, score, stat]) => ({ id, score, stat })),
    ...(payload.hold !== undefined ? { holdSeconds: payload.hold } : {}),
  };
}
