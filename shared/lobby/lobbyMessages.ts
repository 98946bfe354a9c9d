import { z } from 'zod';
import { DEFAULT_GAME_ID } from '../games/registry';
import { LOBBY_PROTOCOL_VERSION, type LobbyEvent, type LobbyState } from './lobbyState';

/** Lobby message types on the transport (all on RELIABLE_ORDERED). */
export const LobbyMessage = {
  HELLO: 'lobby.hello',
  READY: 'lobby.ready',
  CHAT: 'lobby.chat',
  WELCOME: 'lobby.welcome',
  REJECTED: 'lobby.rejected',
  EVENT: 'lobby.event',
  CLOSING: 'lobby.closing',
  GAME: 'lobby.game',
} as const;

/** Why a host turned a guest away or ended their stay. */
export const RejectReason = {
  FULL: 'full',
  WRONG_PASSWORD: 'wrong-password',
  VERSION_MISMATCH: 'version-mismatch',
  IN_GAME: 'in-game',
  KICKED: 'kicked',
  HOST_CLOSED: 'host-closed',
} as const;

/** One of the {@link RejectReason} strings. */
export type RejectReason = (typeof RejectReason)[keyof typeof RejectReason];

/** Player names: trimmed, 1–24 characters, no control characters. */
export const playerNameSchema = z
  .string()
  .transform((s) => s.replace(/\p{Cc}/gu, '').trim())
  .pipe(z.string().min(1, 'name is empty').max(24, 'name is longer than 24 characters'));

/** Colours as #rrggbb. */
export const colourSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'colour must be #rrggbb');

/** Chat text: trimmed, 1–200 characters. */
export const chatTextSchema = z
  .string()
  .transform((s) => s.replace(/\p{Cc}/gu, ' ').trim())
  .pipe(z.string().min(1, 'message is empty').max(200, 'message is longer than 200 characters'));

/** What a guest may send to the host, by message type. */
export const guestMessageSchemas = {
  [LobbyMessage.HELLO]: z.object({
    v: z.number().int(),
    name: playerNameSchema,
    colour: colourSchema,
    password: z.string().max(128).optional(),
  }),
  [LobbyMessage.READY]: z.object({ ready: z.boolean() }),
  [LobbyMessage.CHAT]: z.object({ text: chatTextSchema }),
} as const;

/** A guest message type. */
export type GuestMessageType = keyof typeof guestMessageSchemas;
/** A validated guest message payload. */
export type GuestMessage<T extends GuestMessageType> = z.output<(typeof guestMessageSchemas)[T]>;

/** Host → guest payloads (checked by guests with the same schemas' shapes). */
export interface HostMessages {
  [LobbyMessage.WELCOME]: { you: number; state: LobbyState };
  [LobbyMessage.REJECTED]: { reason: RejectReason; message: string };
  [LobbyMessage.EVENT]: { event: LobbyEvent; revision: number };
  [LobbyMessage.CLOSING]: { reason: RejectReason; message: string };
}

/** The hello a guest sends first. */
export function helloPayload(name: string, colour: string, password?: string): GuestMessage<'lobby.hello'> {
  return password ? { v: LOBBY_PROTOCOL_VERSION, name, colour, password } : { v: LOBBY_PROTOCOL_VERSION, name, colour };
}

const playerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  colour: z.string(),
  ready: z.boolean(),
  host: z.boolean(),
  pingMs: z.number().nullable(),
});

/**
 * The lobby state as a guest receives it from the host. A host of an older LAN Party build sends no `gameId`: its
 * rooms play tag, so it defaults to DEFAULT_GAME_ID. Whether this build has the game is checked after parsing, so
 * an unknown one is refused with a message rather than ignored.
 */
export const lobbyStateSchema = z.object({
  roomName: z.string(),
  gameId: z.string().max(64).default(DEFAULT_GAME_ID),
  capacity: z.number().int(),
  passwordProtected: z.boolean(),
  phase: z.enum(['lobby', 'playing']),
  players: z.array(playerSchema),
  chat: z.array(z.object({ id: z.number().int(), from: z.number().int(), name: z.string(), text: z.string() })),
  revision: z.number().int(),
});

/** A lobby event as a guest receives it. */
export const lobbyEventSchema: z.ZodType<LobbyEvent> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('joined'), player: playerSchema }),
  z.object({ kind: z.literal('left'), playerId: z.number().int(), reason: z.enum(['left', 'kicked', 'timed-out']) }),
  z.object({ kind: z.literal('ready'), playerId: z.number().int(), ready: z.boolean() }),
  z.object({
    kind: z.literal('chat'),
    line: z.object({ id: z.number().int(), from: z.number().int(), name: z.string(), text: z.string() }),
  }),
  z.object({ kind: z.literal('pings'), pings: z.array(z.tuple([z.number().int(), z.number().nullable()])) }),
  z.object({ kind: z.literal('phase'), phase: z.enum(['lobby', 'playing']) }),
]);

/** Host → guest payload schemas, for the guest's single parsing point. */
export const hostMessageSchemas = {
  [LobbyMessage.WELCOME]: z.object({ you: z.number().int(), state: lobbyStateSchema }),
  [LobbyMessage.REJECTED]: z.object({
    reason: z.enum(Object.values(RejectReason) as [RejectReason, ...RejectReason[]]),
    message: z.string(),
  }),
  [LobbyMessage.EVENT]: z.object({ event: lobbyEventSchema, revision: z.number().int() }),
  [LobbyMessage.CLOSING]: z.object({
    reason: z.enum(Object.values(RejectReason) as [RejectReason, ...RejectReason[]]),
    message: z.string(),
  }),
} as const;
