import { z } from 'zod';
import {
  MAX_GAME_ID,
  MAX_INPUT_SEQUENCE,
  MAX_INPUTS_PER_MESSAGE,
  ROSTER_PART_SIZE,
  type InputPayload,
  type ResultsPayload,
  type RosterPayload,
} from './gameProtocol';
import { RULES } from '../games/tag/rules';
import { parseSnapshot, type GameSnapshot } from '../games/tag/snapshot';

const gameId = z.number().int().min(1).max(MAX_GAME_ID);
const playerId = z.string().min(1).max(RULES.maxIdLength);

/** `game.input` as the host accepts it; anything else is dropped and counted. */
export const inputPayloadSchema = z.object({
  g: gameId,
  d: z.number().nonnegative(),
  i: z
    .array(
      z.tuple([
        z.number().int().min(1).max(MAX_INPUT_SEQUENCE),
        z.number(),
        z.number(),
        z.union([z.literal(0), z.literal(1)]),
      ]),
    )
    .min(1)
    .max(MAX_INPUTS_PER_MESSAGE),
});

const rosterPayloadSchema = z
  .object({
    g: gameId,
    part: z.number().int().nonnegative(),
    parts: z
      .number()
      .int()
      .min(1)
      .max(Math.ceil(RULES.maxPlayers / ROSTER_PART_SIZE)),
    p: z.array(z.tuple([playerId, z.string().max(64), z.string().max(16)])).max(RULES.maxPlayers),
  })
  .refine((r) => r.part < r.parts, 'part must be below parts');

const resultsPayloadSchema = z.object({
  g: gameId,
  why: z.enum(['finished', 'abandoned']),
  w: z.array(playerId).max(RULES.maxPlayers),
  s: z.array(z.tuple([playerId, z.number(), z.number().int().nonnegative()])).max(RULES.maxPlayers),
});

const snapshotGameSchema = z.object({ g: gameId });

/** Validates a guest's `game.input`; undefined when malformed. The host's single point of guest validation. */
export function parseInputPayload(value: unknown): InputPayload | undefined {
  const result = inputPayloadSchema.safeParse(value);
  return result.success ? result.data : undefined;
}

/** Validates a `game.roster` part; undefined when malformed. */
export function parseRosterPayload(value: unknown): RosterPayload | undefined {
  const result = rosterPayloadSchema.safeParse(value);
  return result.success ? result.data : undefined;
}

/** Validates a `game.results`; undefined when malformed. */
export function parseResultsPayload(value: unknown): ResultsPayload | undefined {
  const result = resultsPayloadSchema.safeParse(value);
  return result.success ? result.data : undefined;
}

/** Validates a `game.snapshot` (a GameSnapshot plus its game id `g`); undefined when malformed. */
export function parseSnapshotPayload(value: unknown): { game: number; snapshot: GameSnapshot } | undefined {
  const game = snapshotGameSchema.safeParse(value);
  const snapshot = game.success ? parseSnapshot(value) : undefined;
  return game.success && snapshot !== undefined ? { game: game.data.g, snapshot } : undefined;
}
