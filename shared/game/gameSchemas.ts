import { z } from 'zod';
import type { GameInputCodec, GameSnapshotCodec } from './gameTypes';
import {
  MAX_GAME_ID,
  MAX_GAME_PLAYERS,
  MAX_INPUTS_PER_MESSAGE,
  MAX_PLAYER_ID_LENGTH,
  MAX_RESULTS_HOLD_SECONDS,
  ROSTER_PART_SIZE,
  type InputPayload,
  type ResultsPayload,
  type RosterPayload,
} from './gameProtocol';

/** A game session id on the wire. */
export const gameSessionIdSchema = z.number().int().min(1).max(MAX_GAME_ID);
/** A player id on the wire. */
export const playerIdSchema = z.string().min(1).max(MAX_PLAYER_ID_LENGTH);

/** Colours as players accept them (#rgb or #rrggbb): never CSS such as url(…). */
const colour = z.string().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/);
/** A score or stat from the host; anything beyond this is not from an honest host. */
const score = z.number().min(-1e6).max(1e6);

/** `game.input` as the host accepts it for a game whose inputs travel as `codec.wireSchema`. */
export function inputPayloadSchema<W>(codec: Pick<GameInputCodec<never, W>, 'wireSchema'>) {
  return z.object({
    g: gameSessionIdSchema,
    d: z.number().nonnegative(),
    i: z.array(codec.wireSchema).min(1).max(MAX_INPUTS_PER_MESSAGE),
  });
}

/**
 * The host's single point of guest validation for one game: builds the schema once and returns the parser
 * (undefined for anything malformed, which is dropped and counted); by hand when the codec has `readWire`.
 */
export function inputPayloadParser<W>(
  codec: Pick<GameInputCodec<never, W>, 'wireSchema' | 'readWire'>,
): (value: unknown) => InputPayload<W> | undefined {
  const schema = inputPayloadSchema(codec);
  const readWire = codec.readWire;
  if (readWire === undefined) {
    return (value) => {
      const result = schema.safeParse(value);
      return result.success ? (result.data as InputPayload<W>) : undefined;
    };
  }
  // The same decisions as the schema, by hand: zod costs more per message than the whole tick's rules do.
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const { g, d, i } = value as Record<string, unknown>;
    if (!isGameSessionId(g) || typeof d !== 'number' || !Number.isFinite(d) || d < 0) return undefined;
    if (!Array.isArray(i) || i.length < 1 || i.length > MAX_INPUTS_PER_MESSAGE) return undefined;
    const inputs = new Array<W>(i.length);
    for (let k = 0; k < i.length; k++) {
      const wire = readWire(i[k]);
      if (wire === undefined) return undefined;
      inputs[k] = wire;
    }
    return { g, d, i: inputs };
  };
}

function isGameSessionId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_GAME_ID;
}

const rosterPayloadSchema = z
  .object({
    g: gameSessionIdSchema,
    part: z.number().int().nonnegative(),
    parts: z
      .number()
      .int()
      .min(1)
      .max(Math.ceil(MAX_GAME_PLAYERS / ROSTER_PART_SIZE)),
    p: z.array(z.tuple([playerIdSchema, z.string().max(64), colour])).max(MAX_GAME_PLAYERS),
  })
  .refine((r) => r.part < r.parts, 'part must be below parts');

const resultsPayloadSchema = z.object({
  g: gameSessionIdSchema,
  why: z.enum(['finished', 'abandoned']),
  w: z.array(playerIdSchema).max(MAX_GAME_PLAYERS),
  s: z.array(z.tuple([playerIdSchema, score, z.number().int().nonnegative().max(1e6)])).max(MAX_GAME_PLAYERS),
  hold: z.number().nonnegative().max(MAX_RESULTS_HOLD_SECONDS).optional(),
});

const snapshotGameSchema = z.object({ g: gameSessionIdSchema });

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

/** Validates a `game.snapshot` (the game's snapshot plus the session id `g`); undefined when malformed. */
export function parseSnapshotPayload<Snap extends object>(
  value: unknown,
  codec: Pick<GameSnapshotCodec<never, Snap>, 'parse'>,
): { game: number; snapshot: Snap } | undefined {
  const game = snapshotGameSchema.safeParse(value);
  const snapshot = game.success ? codec.parse(value) : undefined;
  return game.success && snapshot !== undefined ? { game: game.data.g, snapshot } : undefined;
}
