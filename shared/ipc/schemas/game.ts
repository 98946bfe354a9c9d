import { z } from 'zod';
import {
  isInputSequence,
  MAX_GAME_PLAYERS,
  MAX_INPUT_SEQUENCE,
  MAX_INPUTS_PER_MESSAGE,
  MAX_RESULTS_HOLD_SECONDS,
} from '../../game/gameProtocol';
import { gameSessionIdSchema as gameIdSchema, playerIdSchema } from '../../game/gameSchemas';
import type { GameInput } from '../../games/gameDefinition';
import { GAMES } from '../../games/registry';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One input as a game's view produced it. Only the generic part (the sequence) is checked here; main checks the rest
 * with the running game's own input schema (GameDefinition.input.schema), since the contract does not know the game.
 */
export const gameInputSchema = z.custom<GameInput>(
  (value) => isRecord(value) && isInputSequence(value.sequence),
  `an input is an object whose sequence is a whole number 1–${MAX_INPUT_SEQUENCE}`,
);

/** `game.input` input: the new inputs (at most one message's worth) and the view's interpolation delay. */
export const gameInputRequestSchema = z.strictObject({
  inputs: z.array(gameInputSchema).max(MAX_INPUTS_PER_MESSAGE),
  interpolationDelay: z.number().min(0).max(1),
});

/** `game.input` output: whether a running game took the inputs (false between games; not an error). */
export const gameInputResultSchema = z.object({ accepted: z.boolean() });

/** `game.roster` payload: names and colours of the current game's players. */
export const gameRosterSchema = z.object({
  game: gameIdSchema,
  players: z
    .array(z.object({ id: playerIdSchema, name: z.string().max(64), colour: z.string().max(16) }))
    .max(MAX_GAME_PLAYERS),
});

/** Seconds a room shows a round's results before it returns to the lobby (the winner screen counts them down). */
export const RESULTS_HOLD_SECONDS = 5;

/** `game.results` payload: why the round ended, who won, everyone's score and count stat (see GameScore). */
export const gameResultsSchema = z.object({
  game: gameIdSchema,
  reason: z.enum(['finished', 'abandoned']),
  winners: z.array(playerIdSchema).max(MAX_GAME_PLAYERS),
  scores: z
    .array(z.object({ id: playerIdSchema, score: z.number(), stat: z.number().int().nonnegative() }))
    .max(MAX_GAME_PLAYERS),
  /** Seconds the room shows these results before it returns to the lobby: the winner screen counts them down. */
  holdSeconds: z.number().nonnegative().max(MAX_RESULTS_HOLD_SECONDS),
});

/** `game.snapshot` payload: one host snapshot of game session `game`, a snapshot of one of the registered games. */
export const gameSnapshotEventSchema = z.object({
  game: gameIdSchema,
  snapshot: z.custom<object>(
    (value) => GAMES.list().some((g) => g.snapshot.parse(value) !== undefined),
    'not a snapshot of any registered game',
  ),
});

/** `game.ended` payload: the game stopped without results (host gone, round ended early, room left). */
export const gameEndedSchema = z.object({ game: gameIdSchema.nullable(), reason: z.string().max(200) });

/** `game.get` output: what a (re)mounting game screen needs to catch up. */
export const gameCurrentSchema = z.object({
  /** This machine's player id in the game ('0' for the host), null outside a room. */
  you: playerIdSchema.nullable(),
  roster: gameRosterSchema.nullable(),
  /** Results of the last round until the next one starts. */
  results: gameResultsSchema.nullable(),
});

/** One connection's health as the net graph plots it. */
export const netLinkStatsSchema = z.object({
  peerId: z.number().int().nonnegative(),
  name: z.string().max(64),
  /** Smoothed round trip in milliseconds, null before the first sample. */
  rttMs: z.number().nonnegative().nullable(),
  jitterMs: z.number().nonnegative(),
  /** Estimated loss fraction, 0–1. */
  loss: z.number().min(0).max(1),
  packetsSentPerSecond: z.number().nonnegative(),
  packetsReceivedPerSecond: z.number().nonnegative(),
});

/** The impairments of one direction of a link conditioner, as the net graph shows them. */
export const conditionerDirectionSchema = z.object({
  latencyMs: z.number().nonnegative(),
  jitterMs: z.number().nonnegative(),
  loss: z.number().min(0).max(1),
});

/** `net.stats` output: the room connection(s) of this machine and any link conditioner in front of them. */
export const netStatsSchema = z.object({
  role: z.enum(['host', 'guest']).nullable(),
  /** A guest's one link to the host, or the host's link to each guest. */
  links: z.array(netLinkStatsSchema).max(32),
  conditioner: z.object({ upstream: conditionerDirectionSchema, downstream: conditionerDirectionSchema }).nullable(),
  /**
   * The room's snapshot rate: on the host the one it chose (60 on a LAN, lower on internet paths or under loss), on a
   * guest the one it receives (the last second's); null when no game runs or none arrived.
   */
  snapshotsPerSecond: z.number().nonnegative().max(1000).nullable(),
});

/** One input of `game.input`. */
export type GameInputRequest = z.infer<typeof gameInputRequestSchema>;
/** `game.input` output. */
export type GameInputResult = z.infer<typeof gameInputResultSchema>;
/** `game.roster` payload. */
export type GameRosterPayload = z.infer<typeof gameRosterSchema>;
/** `game.results` payload. */
export type GameResultsPayload = z.infer<typeof gameResultsSchema>;
/** `game.snapshot` payload. */
export type GameSnapshotEvent = z.infer<typeof gameSnapshotEventSchema>;
/** `game.ended` payload. */
export type GameEnded = z.infer<typeof gameEndedSchema>;
/** `game.get` output. */
export type GameCurrent = z.infer<typeof gameCurrentSchema>;
/** One link of `net.stats`. */
export type NetLinkStats = z.infer<typeof netLinkStatsSchema>;
/** A link conditioner's settings as shown in the net graph. */
export type ConditionerSummary = z.infer<typeof netStatsSchema>['conditioner'];
/** `net.stats` output. */
export type NetStats = z.infer<typeof netStatsSchema>;
