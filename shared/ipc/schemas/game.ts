import { z } from 'zod';
import { MAX_GAME_ID, MAX_INPUT_SEQUENCE, MAX_INPUTS_PER_MESSAGE } from '../../game/gameProtocol';
import { RULES } from '../../games/tag/rules';
import { parseSnapshot, type GameSnapshot } from '../../games/tag/snapshot';

const gameIdSchema = z.number().int().min(1).max(MAX_GAME_ID);
const playerIdSchema = z.string().min(1).max(RULES.maxIdLength);

/** One tick of the local player's controls, as ClientView.advance() produced it. */
export const playerInputSchema = z.strictObject({
  sequence: z.number().int().min(1).max(MAX_INPUT_SEQUENCE),
  moveX: z.number().min(-1).max(1),
  moveY: z.number().min(-1).max(1),
  tag: z.boolean(),
});

/** `game.input` input: the new inputs (at most one message's worth) and the view's interpolation delay. */
export const gameInputRequestSchema = z.strictObject({
  inputs: z.array(playerInputSchema).max(MAX_INPUTS_PER_MESSAGE),
  interpolationDelay: z.number().min(0).max(1),
});

/** `game.input` output: whether a running game took the inputs (false between games; not an error). */
export const gameInputResultSchema = z.object({ accepted: z.boolean() });

/** `game.roster` payload: names and colours of the current game's players. */
export const gameRosterSchema = z.object({
  game: gameIdSchema,
  players: z
    .array(z.object({ id: playerIdSchema, name: z.string().max(64), colour: z.string().max(16) }))
    .max(RULES.maxPlayers),
});

/** `game.results` payload: why the round ended, who won, everyone's score. */
export const gameResultsSchema = z.object({
  game: gameIdSchema,
  reason: z.enum(['finished', 'abandoned']),
  winners: z.array(playerIdSchema).max(RULES.maxPlayers),
  scores: z
    .array(z.object({ id: playerIdSchema, score: z.number(), tags: z.number().int().nonnegative() }))
    .max(RULES.maxPlayers),
});

/** `game.snapshot` payload: one validated host snapshot of game `game` (the snapshot's own parser checks it). */
export const gameSnapshotEventSchema = z.object({
  game: gameIdSchema,
  snapshot: z.custom<GameSnapshot>((value) => parseSnapshot(value) !== undefined, 'not a game snapshot'),
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
