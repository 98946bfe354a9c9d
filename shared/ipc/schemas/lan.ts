import { z } from 'zod';
import { portSchema } from './lobby';

/**
 * Whether we can play on a listed server: `compatible` (LAN Party, our discovery protocol version),
 * `incompatible` (LAN Party of another version), `unknown` (a plain gale.net server that does not say).
 */
export const lanCompatibilitySchema = z.enum(['compatible', 'incompatible', 'unknown']);

/** A LAN Party room's activity as its discovery reply tells it (`lobby`: open to join, `playing`: a round runs). */
export const lanRoomStateSchema = z.enum(['lobby', 'playing']);

/** One server in the LAN list. */
export const lanServerSchema = z.object({
  /** Stable key across updates (instance id, or host:port for servers without one). */
  id: z.string(),
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
  playerCount: z.number().int().nonnegative(),
  capacity: z.number().int().nullable(),
  /** Round trip of the latest answered search, in ms; null when only announcements were heard. */
  pingMs: z.number().nonnegative().nullable(),
  passwordProtected: z.boolean(),
  protocolVersion: z.number().int().nullable(),
  compatibility: lanCompatibilitySchema,
  gameName: z.string().nullable(),
  /** The host player's name, when the reply carries it (LAN Party hosts); null otherwise. */
  hostName: z.string().nullable(),
  /** What the room is doing, when the reply says (LAN Party hosts); null otherwise. */
  state: lanRoomStateSchema.nullable(),
  /** The room this app is hosting. */
  own: z.boolean(),
  /** Found through a server the player added by address (not a broadcast search). */
  addedByAddress: z.boolean(),
  /** When the server was last heard (reply or announcement), wall-clock ms since the Unix epoch. */
  lastSeenAt: z.number(),
});

/** `lan.addServer` input: an address the player typed, queried by unicast on every search round. */
export const lanAddServerInputSchema = z.strictObject({
  host: z
    .string()
    .trim()
    .min(1, 'Enter the server’s address')
    .max(253, 'That address is too long')
    .refine((s) => /^[A-Za-z0-9.-]+$/.test(s), 'An address is letters, digits, dots and dashes, like 100.64.0.7'),
  port: portSchema,
});

/** `lan.removeServer` input: the added server as listed. */
export const lanRemoveServerInputSchema = z.strictObject({ host: z.string().max(253), port: portSchema });

/** Most servers a player can add by address (each costs a datagram per round). */
export const LAN_ADDED_SERVERS_MAX = 16;

/**
 * A server added by address and how it answers: `waiting` (asked, no round over yet), `answered` (listed, with
 * `serverId`), `no-answer` (a whole round passed in silence), `unreachable` (could not even be sent; `detail`).
 */
export const lanAddedServerSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  status: z.enum(['waiting', 'answered', 'no-answer', 'unreachable']),
  serverId: z.string().nullable(),
  detail: z.string().nullable(),
});

/** The live LAN list, pushed as `lan.servers` and returned by the `lan.*` requests. */
export const lanListSchema = z.object({
  /** The search is running (between lan.start and lan.stop). */
  running: z.boolean(),
  servers: z.array(lanServerSchema),
  /** Why the search could not run, in words; null when it runs or was never started. */
  error: z.string().nullable(),
  /** The UDP ports this backend uses, for the advice shown when nothing is found. */
  ports: z.object({ discovery: z.number().int(), game: z.number().int() }),
  /** Servers the player added by address, in the order added. */
  added: z.array(lanAddedServerSchema),
  /** A server silent this long has missed a search round: the list marks it stale until it is dropped. */
  staleAfterMs: z.number().int().positive(),
});

/** One server in the LAN list. */
export type LanServer = z.output<typeof lanServerSchema>;

/** The live LAN list. */
export type LanList = z.output<typeof lanListSchema>;

/** A server added by address, with its answer status. */
export type LanAddedServer = z.output<typeof lanAddedServerSchema>;

/** A room's activity from its discovery reply. */
export type LanRoomState = z.output<typeof lanRoomStateSchema>;
