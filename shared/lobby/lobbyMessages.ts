import { z } from 'zod';
import { DEFAULT_GAME_ID } from '../games/registry';
import { normalTextSchema, normalizedTextSchema } from '../text/textSchema';
import {
  CHAT_TEXT_MAX,
  LOBBY_NAME_UNITS,
  MAX_PING_MS,
  MAX_PLAYER_ID,
  MAX_RETRY_AFTER_SEC,
  NOTICE_TEXT_MAX,
  ROOM_CAPACITY,
  ROOM_NAME_MAX,
} from './lobbyLimits';
import { LOBBY_PALETTE } from './lobbyPalette';
import { LOBBY_PROTOCOL_VERSION, MAX_CHAT_LINES, PlayerPath, type LobbyEvent, type LobbyState } from './lobbyState';

/** Lobby message types on the transport (all on RELIABLE_ORDERED). */
export const LobbyMessage = {
  HELLO: 'lobby.hello',
  /** Guest → host: the answer to a password challenge (its CPace share and key confirmation). */
  PROOF: 'lobby.proof',
  READY: 'lobby.ready',
  CHAT: 'lobby.chat',
  /** Host → guest: a password room's CPace challenge (key salt, session id, the host's share). */
  CHALLENGE: 'lobby.challenge',
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
  /** The name shows nothing (only invisible characters) or cannot be told from the host's marker. */
  INVALID_NAME: 'invalid-name',
  /** Too many wrong passwords from this address; `retryAfterSec` says how long to wait. */
  TOO_MANY_TRIES: 'too-many-tries',
  /** A resume token the room does not take: the seat was given up (away too long), or the token is not good. */
  SEAT_GONE: 'seat-gone',
} as const;

/** One of the {@link RejectReason} strings. */
export type RejectReason = (typeof RejectReason)[keyof typeof RejectReason];

/**
 * The one player-name schema (the profile form, the settings file and the room): normalised (NFKC, single spaces,
 * trimmed), visible, 1–24 UTF-16 units, the room's own limit (a host clips longer names, an emoji counts two);
 * control and invisible characters (bidi overrides, zero-width, Hangul fillers) are refused with a message.
 */
export const playerNameSchema = normalizedTextSchema({ label: 'Name', maxUnits: LOBBY_NAME_UNITS, refuseHidden: true });

/** Colours as #rrggbb (the host maps any colour outside its palette to the nearest palette colour). */
export const colourSchema = z
  .string()
  .max(16)
  .regex(/^#[0-9a-fA-F]{6}$/, 'colour must be #rrggbb');

/** Chat text: normalised, visible, 1–200 characters. */
export const chatTextSchema = normalizedTextSchema({ label: 'Message', maxChars: CHAT_TEXT_MAX });

/** 64 bytes as unpadded base64url: a CPace key-confirmation tag (HMAC-SHA512). */
const base64url64 = z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'expected 64 bytes of base64url');
/** 16 random bytes as unpadded base64url: a room's key salt, a challenge's session id. */
const base64url16 = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'expected 16 bytes of base64url');
/** A CPace message (a ristretto255 share and its associated data) as unpadded base64url; the exchange parses it. */
const cpaceShare = z.string().regex(/^[A-Za-z0-9_-]{43,128}$/, 'expected a CPace share in base64url');

/** The password exchange's cipher suite, named in every challenge (passwordExchange.ts). */
export const PASSWORD_SUITE = 'CPACE-RISTR255-SHA512';

/** Just the version of a hello, read first so an older or newer guest gets a clear version mismatch. */
export const helloVersionSchema = z.object({ v: z.number() });

/** Longest app version carried in lobby messages ("1.2.3-beta.4" and the like). */
export const APP_VERSION_MAX = 40;

/** Longest resume token accepted (a token is 57 characters; the host's step judges the rest). */
export const RESUME_TOKEN_MAX = 128;

/** Longest seat grace a host may announce, seconds. */
export const SEAT_GRACE_MAX_SEC = 600;

/** What a guest may send to the host, by message type. */
export const guestMessageSchemas = {
  [LobbyMessage.HELLO]: z.object({
    v: z.literal(LOBBY_PROTOCOL_VERSION),
    // Raw here: the host normalises it, and tells an invisible name apart from a malformed hello.
    name: z.string().max(16 * LOBBY_NAME_UNITS),
    colour: colourSchema,
    /** The guest's LAN Party version, so a refusal can say which side must update (absent from older guests). */
    app: z.string().max(APP_VERSION_MAX).optional(),
    /** A guest coming back after losing its link: the resume token its welcome gave it (checked by the host). */
    resume: z.string().max(RESUME_TOKEN_MAX).optional(),
    /** With `resume`: the proof of the seat's key on this connection (HMAC-SHA256, hex; main/lobby/resumeProof.ts). */
    resumeProof: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    /** The guest's transport offered the native path, so a v1 connection means the offer was lost on the way. */
    native: z.boolean().optional(),
  }),
  [LobbyMessage.PROOF]: z.object({ share: cpaceShare, tag: base64url64 }),
  [LobbyMessage.READY]: z.object({ ready: z.boolean() }),
  [LobbyMessage.CHAT]: z.object({ text: chatTextSchema }),
} as const;

/** A guest message type. */
export type GuestMessageType = keyof typeof guestMessageSchemas;
/** A validated guest message payload. */
export type GuestMessage<T extends GuestMessageType> = z.output<(typeof guestMessageSchemas)[T]>;

/** A rejection or closing notice; `retryAfterSec` only with too-many-tries. */
export interface LobbyNotice {
  reason: RejectReason;
  message: string;
  retryAfterSec?: number;
  /** The same wait in milliseconds (a guest waits out a short one by itself; older guests ignore it). */
  retryAfterMs?: number;
  /** With a version refusal: the host's app version and lobby protocol, so the guest can say who must update. */
  hostApp?: string;
  hostProtocol?: number;
}

/** Host → guest payloads (checked by guests with {@link hostMessageSchemas}). */
export interface HostMessages {
  [LobbyMessage.CHALLENGE]: { suite: typeof PASSWORD_SUITE; salt: string; sid: string; share: string };
  /**
   * `resume`: the token to come back with after losing the link, good for `graceSec` seconds of silence.
   * `confirm`: in a password room, the host's key confirmation, proving it knew the password too.
   */
  [LobbyMessage.WELCOME]: { you: number; state: LobbyState; resume?: string; graceSec?: number; confirm?: string };
  [LobbyMessage.REJECTED]: LobbyNotice;
  [LobbyMessage.EVENT]: { event: LobbyEvent; revision: number };
  [LobbyMessage.CLOSING]: LobbyNotice;
}

/**
 * The hello a guest sends first (the password never travels: a password room answers with a challenge); with
 * `resume`, the token of the seat it comes back to; `offersNative` when its transport offered the native path.
 */
export function helloPayload(
  name: string,
  colour: string,
  appVersion?: string,
  resume?: { readonly token: string; readonly proof?: string | undefined },
  offersNative = false,
): GuestMessage<'lobby.hello'> {
  return {
    v: LOBBY_PROTOCOL_VERSION,
    name,
    colour,
    ...(appVersion ? { app: appVersion.slice(0, APP_VERSION_MAX) } : {}),
    ...(resume !== undefined ? { resume: resume.token } : {}),
    ...(resume?.proof !== undefined ? { resumeProof: resume.proof } : {}),
    ...(offersNative ? { native: true } : {}),
  };
}

const playerIdSchema = z.number().int().min(0).max(MAX_PLAYER_ID);
const shownNameSchema = normalTextSchema({ label: 'player name', maxUnits: LOBBY_NAME_UNITS });

const playerSchema = z.object({
  id: playerIdSchema,
  name: shownNameSchema,
  colour: z.enum(LOBBY_PALETTE),
  ready: z.boolean(),
  host: z.boolean(),
  pingMs: z.number().int().min(0).max(MAX_PING_MS).nullable(),
  path: z.enum(Object.values(PlayerPath) as [PlayerPath, ...PlayerPath[]]).optional(),
  awayUntil: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  linkQuiet: z.boolean().optional(),
  fellBackToV1: z.boolean().optional(),
});

const chatLineSchema = z.object({
  id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  from: playerIdSchema,
  name: shownNameSchema,
  text: normalTextSchema({ label: 'chat line', maxChars: CHAT_TEXT_MAX }),
});

/**
 * The lobby state as a guest receives it from the host: every field bounded, players within the capacity. A host
 * of an older LAN Party build sends no `gameId`: its rooms play tag, so it defaults to DEFAULT_GAME_ID. Whether
 * this build has the game is checked after parsing, so an unknown one is refused with a message, not ignored.
 */
export const lobbyStateSchema = z
  .object({
    roomName: normalTextSchema({ label: 'room name', maxChars: ROOM_NAME_MAX }),
    gameId: z.string().max(64).default(DEFAULT_GAME_ID),
    capacity: z.number().int().min(ROOM_CAPACITY.MIN).max(ROOM_CAPACITY.MAX),
    passwordProtected: z.boolean(),
    phase: z.enum(['lobby', 'playing']),
    players: z.array(playerSchema).min(1).max(ROOM_CAPACITY.MAX),
    chat: z.array(chatLineSchema).max(MAX_CHAT_LINES),
    revision: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .refine((s) => s.players.length <= s.capacity, 'more players than the room holds')
  .refine((s) => new Set(s.players.map((p) => p.id)).size === s.players.length, 'two players share an id');

/** A lobby event as a guest receives it. */
export const lobbyEventSchema: z.ZodType<LobbyEvent> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('joined'), player: playerSchema }),
  z.object({ kind: z.literal('left'), playerId: playerIdSchema, reason: z.enum(['left', 'kicked', 'timed-out']) }),
  z.object({ kind: z.literal('ready'), playerId: playerIdSchema, ready: z.boolean() }),
  z.object({ kind: z.literal('chat'), line: chatLineSchema }),
  z.object({
    kind: z.literal('pings'),
    pings: z
      .array(z.tuple([playerIdSchema, z.number().int().min(0).max(MAX_PING_MS).nullable()]))
      .max(ROOM_CAPACITY.MAX),
  }),
  z.object({ kind: z.literal('phase'), phase: z.enum(['lobby', 'playing']) }),
]);

const noticeSchema = z.object({
  reason: z.enum(Object.values(RejectReason) as [RejectReason, ...RejectReason[]]),
  message: z.string().max(NOTICE_TEXT_MAX),
  retryAfterSec: z.number().int().min(1).max(MAX_RETRY_AFTER_SEC).optional(),
  retryAfterMs: z
    .number()
    .int()
    .min(1)
    .max(MAX_RETRY_AFTER_SEC * 1000)
    .optional(),
  hostApp: z.string().max(APP_VERSION_MAX).optional(),
  hostProtocol: z.number().int().min(0).max(1_000_000).optional(),
});

/** Host → guest payload schemas, for the guest's single parsing point. */
export const hostMessageSchemas = {
  [LobbyMessage.CHALLENGE]: z.object({
    suite: z.literal(PASSWORD_SUITE),
    salt: base64url16,
    sid: base64url16,
    share: cpaceShare,
  }),
  [LobbyMessage.WELCOME]: z
    .object({
      you: playerIdSchema.min(1),
      state: lobbyStateSchema,
      resume: z.string().max(RESUME_TOKEN_MAX).optional(),
      graceSec: z.number().int().min(0).max(SEAT_GRACE_MAX_SEC).optional(),
      confirm: base64url64.optional(),
    })
    .refine((w) => w.state.players.some((p) => p.id === w.you), 'the welcome does not include us'),
  [LobbyMessage.REJECTED]: noticeSchema,
  [LobbyMessage.EVENT]: z.object({ event: lobbyEventSchema, revision: z.number().int().min(0) }),
  [LobbyMessage.CLOSING]: noticeSchema,
} as const;
