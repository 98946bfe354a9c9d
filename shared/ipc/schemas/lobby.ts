import { z } from 'zod';
import type { GameDefinition } from '../../games/gameDefinition';
import { GAMES } from '../../games/registry';
import { chatTextSchema, lobbyStateSchema, SEAT_GRACE_MAX_SEC } from '../../lobby/lobbyMessages';
import { ROOM_CAPACITY, ROOM_NAME_MAX } from '../../lobby/lobbyLimits';
import { LOBBY_END_CODES } from '../../lobby/lobbyEndCode';
import { normalizedTextSchema } from '../../text/textSchema';
import { parseIpv4 } from '../../roomCode/ipv4';

export { ROOM_CAPACITY, ROOM_NAME_MAX };

/** The room sizes a game allows: its player limits within ROOM_CAPACITY, and the default clamped into them. */
export function roomCapacityRange(game: Pick<GameDefinition, 'minPlayers' | 'maxPlayers'>): {
  readonly min: number;
  readonly max: number;
  readonly default: number;
} {
  const min = Math.max(ROOM_CAPACITY.MIN, game.minPlayers);
  const max = Math.min(ROOM_CAPACITY.MAX, game.maxPlayers);
  return { min, max, default: Math.min(max, Math.max(min, ROOM_CAPACITY.DEFAULT)) };
}

/** A game id this build has (shared/games/registry.ts); anything else is refused, naming the id. */
export const gameIdSchema = z
  .string()
  .max(64, 'A game id is at most 64 characters')
  .refine((id) => GAMES.has(id), { error: (issue) => `There is no game “${String(issue.input)}” in this LAN Party` });

/** Longest room password accepted (the lobby's hello carries at most 128). */
export const ROOM_PASSWORD_MAX = 128;

/** A room name: normalised like every shown text, 1–40 characters; hidden characters refused with a message. */
export const roomNameSchema = normalizedTextSchema({ label: 'Room name', maxChars: ROOM_NAME_MAX, refuseHidden: true });

/** A UDP port a player may type: 1–65535. */
export const portSchema = z
  .number({ error: 'Port must be a number' })
  .int('Port must be a whole number')
  .min(1, 'Port must be between 1 and 65535')
  .max(65535, 'Port must be between 1 and 65535');

/** An optional password; an empty one means "no password". */
export const roomPasswordSchema = z
  .string()
  .max(ROOM_PASSWORD_MAX, `Password must be at most ${ROOM_PASSWORD_MAX} characters`)
  .transform((s) => (s.length > 0 ? s : undefined));

/** A dotted-quad IPv4 address (no leading zeros, each part 0–255). */
export const ipv4AddressSchema = z
  .string()
  .max(15, 'That is not an IPv4 address')
  .refine((text) => parseIpv4(text) !== undefined, 'Use an IPv4 address like 192.168.1.20');

/**
 * Seconds a room holds the seat of a guest whose link went silent, for it to come back to (the CLI's --seat-grace):
 * 0 gives the seat up at once. The host's default (main/lobby/host/lobbyHost.ts reads it from here).
 */
export const SEAT_GRACE = { DEFAULT: 30, MIN: 0, MAX: SEAT_GRACE_MAX_SEC } as const;

const seatGraceRange = `A seat is held ${SEAT_GRACE.MIN}–${SEAT_GRACE.MAX} seconds`;

/** A seat grace the host may choose, whole seconds within {@link SEAT_GRACE}. */
export const seatGraceSchema = z
  .number({ error: 'The seat grace must be a number of seconds' })
  .int('The seat grace must be a whole number of seconds')
  .min(SEAT_GRACE.MIN, seatGraceRange)
  .max(SEAT_GRACE.MAX, seatGraceRange);

/** `lobby.host` input: everything optional, defaults chosen in main (the game: DEFAULT_GAME_ID). */
export const hostRoomInputSchema = z.strictObject({
  roomName: roomNameSchema.optional(),
  /** Which game the room plays; its player limits bound the capacity (checked in main). */
  gameId: gameIdSchema.optional(),
  capacity: z
    .number()
    .int('Capacity must be a whole number')
    .min(ROOM_CAPACITY.MIN, `A room needs room for at least ${ROOM_CAPACITY.MIN} players`)
    .max(ROOM_CAPACITY.MAX, `A room takes at most ${ROOM_CAPACITY.MAX} players`)
    .optional(),
  password: roomPasswordSchema.optional(),
  port: portSchema.optional(),
  /** Who can join: this network only (default), or friends over the internet too (needs a rendezvous). */
  reach: z.enum(['lan', 'internet']).optional(),
  /** Which of this machine's IPv4 addresses goes into the code (one `lobby.addresses` lists); default the best LAN one. */
  advertiseAddress: ipv4AddressSchema.optional(),
  /** How long a guest that lost its link keeps its seat; default SEAT_GRACE.DEFAULT. */
  seatGraceSec: seatGraceSchema.optional(),
});

/** `lobby.joinByCode` input: the code as typed (decoded in main, which explains a bad one). */
export const joinByCodeInputSchema = z.strictObject({
  code: z.string().max(100, 'That is far too long for a room code'),
  password: roomPasswordSchema.optional(),
  /** Ask the address first (a unicast discovery query); false is "Try anyway" for a server without discovery. */
  probe: z.boolean().optional(),
});

/** `lobby.joinByAddress` input: a host name or IPv4 address and the game port. */
export const joinByAddressInputSchema = z.strictObject({
  host: z
    .string()
    .trim()
    .min(1, 'Enter the host’s address')
    .max(253, 'That address is too long')
    .refine((s) => !/[\s/\\@]/.test(s), 'An address has no spaces or slashes'),
  port: portSchema,
  password: roomPasswordSchema.optional(),
});

/** `lobby.setReady` input. */
export const setReadyInputSchema = z.strictObject({ ready: z.boolean() });

/** `lobby.chat` input: the lobby's own chat rules (normalised, 1–200 characters). */
export const chatInputSchema = z.strictObject({ text: chatTextSchema });

/** `lobby.kick` input: a guest's player id (the host is 0 and cannot be kicked). */
export const kickInputSchema = z.strictObject({ playerId: z.number().int().min(1, 'The host cannot be removed') });

/**
 * Where this app is with rooms: `idle` (in none), `hosting` (opening a room), `joining` (connecting to one),
 * `in-room` (in a room; `role` says whether we host it), `ended` (our stay ended; `end` says why).
 */
export const lobbyStatusSchema = z.enum(['idle', 'hosting', 'joining', 'in-room', 'ended']);

/** How a stay ended (the lobby's end codes). */
export const lobbyEndSchema = z.object({
  code: z.enum(LOBBY_END_CODES),
  message: z.string(),
});

/** A LAN address of the hosting machine. */
export const lanAddressSchema = z.object({ interfaceName: z.string(), address: z.string() });

/** Why a room has no short code: a VPN address, a /31–/32 or odd netmask, too wide a subnet with its own port. */
export const shortCodeMissingSchema = z.enum([
  'vpn',
  'no-host-part',
  'too-large',
  'invalid-address',
  'not-on-interface',
]);

/** One address a host can put in its code, as `lobby.addresses` lists them. */
export const hostAddressSchema = z.object({
  interfaceName: z.string(),
  address: z.string(),
  netmask: z.string(),
  /** A VPN overlay (Tailscale, ZeroTier…), by the interface's name or range. */
  vpn: z.boolean(),
  /** Why a room on this address would have no short code; null when it would have one. */
  shortCodeMissing: shortCodeMissingSchema.nullable(),
});

/** `lobby.addresses` output: this machine's addresses (best first) and the one a room uses unless told otherwise. */
export const hostAddressesSchema = z.object({
  addresses: z.array(hostAddressSchema),
  /** The remembered choice when it still exists, else the best LAN address; null on a machine with none. */
  preferred: z.string().nullable(),
});

/** One address a host can advertise. */
export type HostAddress = z.output<typeof hostAddressSchema>;

/** What `lobby.addresses` answers. */
export type HostAddresses = z.output<typeof hostAddressesSchema>;

/** What the room screens render, pushed as `lobby.changed`. */
export const lobbyViewSchema = z.object({
  /** The backend's count of its view changes: a view not newer than the one held is stale. */
  revision: z.number().int().min(0),
  status: lobbyStatusSchema,
  role: z.enum(['host', 'guest']).nullable(),
  /** The room code to share; null when not in a room (or the host's address is not IPv4). */
  code: z.string().nullable(),
  /** The short LAN code (5–7 characters) guests on the host's subnet type; null when only the full code works. */
  shortCode: z.string().nullable(),
  /** Why a hosted room has no short code; null when it has one (and for guests). */
  shortCodeMissing: shortCodeMissingSchema.nullable(),
  /** The host's LAN addresses (empty for guests). */
  addresses: z.array(lanAddressSchema),
  /** The room's game port. */
  port: z.number().int().nullable(),
  /** A hosted room's seat grace, seconds (see SEAT_GRACE); null for guests and outside a room. */
  seatGraceSec: z.number().int().min(SEAT_GRACE.MIN).max(SEAT_GRACE.MAX).nullable().optional(),
  /** Where the room is: the host address and port (guests: what they joined; hosts: the advertised address). */
  target: z.object({ host: z.string(), port: z.number().int() }).nullable(),
  /** Our player id in the room. */
  you: z.number().int().nullable(),
  state: lobbyStateSchema.nullable(),
  /** Whether LAN lists show the room (false when the discovery port was unavailable). */
  discoverable: z.boolean(),
  /** Why the stay ended, when status is `ended`. */
  end: lobbyEndSchema.nullable(),
  /**
   * An internet room: its NET-… code (hosts and guests) and, for the host, where the room stands with the
   * rendezvous (`reconnecting`: guests cannot find it until the rendezvous is back; `expired`: no new joins).
   */
  internet: z
    .object({
      code: z.string(),
      status: z.enum(['registered', 'reconnecting', 'expired', 'closed']),
      message: z.string().nullable(),
    })
    .nullable()
    .optional(),
  /** While joining an internet room: finding the host, trying a direct path, or using the relay. */
  joinStep: z.enum(['finding-host', 'trying-direct', 'using-relay']).nullable().optional(),
});

/** The view model of the room screens. */
export type LobbyView = z.output<typeof lobbyViewSchema>;

/** How a stay ended. */
export type LobbyViewEnd = z.output<typeof lobbyEndSchema>;

/** What `lobby.host` accepts, as the caller writes it. */
export type HostRoomInput = z.input<typeof hostRoomInputSchema>;

/** The view of a backend in no room: the starting point on both sides of the boundary. */
export const IDLE_LOBBY_VIEW: LobbyView = {
  revision: 0,
  status: 'idle',
  role: null,
  code: null,
  shortCode: null,
  shortCodeMissing: null,
  addresses: [],
  port: null,
  target: null,
  you: null,
  state: null,
  discoverable: false,
  end: null,
};
