import { z } from 'zod';
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

/** Longest app version carried in lobby messages ("1.2.3-beta.4" and the like). */
export const APP_VERSION_MAX = 40;

/** What a guest may send to the host, by message type. */
export const guestMessageSchemas = {
  [LobbyMessage.HELLO]: z.object({
    v: z.number().int(),
    name: playerNameSchema,
    colour: colourSchema,
    password: z.string().max(128).optional(),
    /** The guest's LAN Party version, so a refusal can say which side must update (absent from older guests). */
    app: z.string().max(APP_VERSION_MAX).optional(),
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
  /** A version refusal also carries the host's app version and lobby protocol, so the guest can say who must update. */
  [LobbyMessage.REJECTED]: { reason: RejectReason; message: string; hostApp?: string; hostProtocol?: number };
  [LobbyMessage.EVENT]: { event: LobbyEvent; revision: number };
  [LobbyMessage.CLOSING]: { reason: RejectReason; message: string };
}

/** The hello a guest sends first; `appVersion` is this app's version (left out when unknown). */
export function helloPayload(
  name: string,
  colour: string,
  password?: string,
  appVersion?: string,
): GuestMessage<'lobby.hello'> {
  return {
    v: LOBBY_PROTOCOL_VERSION,
    name,
    colour,
    ...(password ? { password } : {}),
    ...(appVersion ? { app: appVersion.slice(0, APP_VERSION_MAX) } : {}),
  };
}

const playerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  colour: z.string(),
  ready: z.boolean(),
  host: z.boolean(),
  pingMs: z.number().nullable(),
});

/** The lobby state as a guest receives it from the host. */
export const lobbyStateSchema = z.object({
  roomName: z.string(),
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
    hostApp: z.string().max(APP_VERSION_MAX).optional(),
    hostProtocol: z.number().int().optional(),
  }),
  [LobbyMessage.EVENT]: z.object({ event: lobbyEventSchema, revision: z.number().int() }),
  [LobbyMessage.CLOSING]: z.object({
    reason: z.enum(Object.values(RejectReason) as [RejectReason, ...RejectReason[]]),
    message: z.string(),
  }),
} as const;
