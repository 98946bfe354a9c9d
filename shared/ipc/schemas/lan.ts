import { z } from 'zod';

/**
 * Whether we can play on a listed server: `compatible` (LAN Party, our discovery protocol version),
 * `incompatible` (LAN Party of another version), `unknown` (a plain gale.net server that does not say).
 */
export const lanCompatibilitySchema = z.enum(['compatible', 'incompatible', 'unknown']);

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
  /** The room this app is hosting. */
  own: z.boolean(),
});

/** The live LAN list, pushed as `lan.servers` and returned by the `lan.*` requests. */
export const lanListSchema = z.object({
  /** The search is running (between lan.start and lan.stop). */
  running: z.boolean(),
  servers: z.array(lanServerSchema),
  /** Why the search could not run, in words; null when it runs or was never started. */
  error: z.string().nullable(),
});

/** One server in the LAN list. */
export type LanServer = z.output<typeof lanServerSchema>;

/** The live LAN list. */
export type LanList = z.output<typeof lanListSchema>;
