import { z } from 'zod';
import { RENDEZVOUS_LIMITS as L, RENDEZVOUS_VERSION } from './rendezvousLimits';
import { RendezvousErrorCode } from './rendezvousErrorCode';

/** Every message kind, both directions. */
export const RendezvousKind = {
  // client → service
  REGISTER: 'register',
  UNREGISTER: 'unregister',
  JOIN: 'join',
  ANSWER: 'answer',
  REJECT: 'reject',
  PING: 'ping',
  // service → client
  WELCOME: 'welcome',
  REGISTERED: 'registered',
  JOIN_REQUEST: 'join-request',
  JOIN_PENDING: 'join-pending',
  PONG: 'pong',
  ERROR: 'error',
  // both ways, forwarded between the two sides of one join
  CANDIDATE: 'candidate',
  END_OF_CANDIDATES: 'end-of-candidates',
} as const;

/** One of the {@link RendezvousKind} values. */
export type RendezvousKind = (typeof RendezvousKind)[keyof typeof RendezvousKind];

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A room id: six Crockford base32 characters (30 bits), chosen by the service, upper case. */
export const ROOM_ID_CHARS = 6;
/** Room ids as the service hands them out and the internet code carries them. */
export const roomIdSchema = z.string().regex(new RegExp(`^[0-9A-HJKMNP-TV-Z]{${ROOM_ID_CHARS}}$`), 'not a room id');

/** The secret a host keeps to re-register its room after the service restarts: 32 base64url characters. */
export const roomSecretSchema = z.string().length(32).regex(BASE64URL, 'not base64url');

/** The service's handle for one guest's join request: 16 base64url characters. */
export const joinIdSchema = z.string().length(16).regex(BASE64URL, 'not base64url');

/** An X25519 public key, 32 bytes as base64url without padding (43 characters). */
export const publicKeySchema = z
  .string()
  .length(43)
  .regex(/^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/, 'not a 32-byte base64url key');

/** A fresh random value from each side, 16–32 bytes as base64url (22–43 characters), bound into the key agreement. */
export const nonceSchema = z.string().min(22).max(43).regex(BASE64URL, 'not base64url');

/** One ICE candidate line (SDP attribute value, no `candidate:` prefix needed); printable ASCII only. */
export const candidateSchema = z
  .string()
  .min(1)
  .max(L.MAX_CANDIDATE_CHARS)
  .regex(/^[\x20-\x7e]+$/, 'not printable ASCII');

/** ICE parameters as the ICE session gathers them. */
export const iceParametersSchema = z.strictObject({
  usernameFragment: z
    .string()
    .min(L.MIN_UFRAG_CHARS)
    .max(L.MAX_UFRAG_CHARS)
    .regex(/^[A-Za-z0-9+/]+$/, 'not an ICE ufrag'),
  password: z
    .string()
    .min(L.MIN_ICE_PASSWORD_CHARS)
    .max(L.MAX_ICE_PASSWORD_CHARS)
    .regex(/^[A-Za-z0-9+/]+$/, 'not an ICE password'),
  candidates: z.array(candidateSchema).max(L.MAX_CANDIDATES),
});

/** What each side sends the other: its ICE parameters, its X25519 public key and a nonce. */
export const peerOfferSchema = z.strictObject({
  ice: iceParametersSchema,
  publicKey: publicKeySchema,
  nonce: nonceSchema,
});

/** A TURN server with time-limited credentials the service minted for this connection. */
export const turnGrantSchema = z.strictObject({
  /** `turn:host:port` or `turns:host:port`, optionally `?transport=tcp`. */
  urls: z
    .array(z.string().regex(/^turns?:[\x21-\x7e]{1,200}$/, 'not a turn: URL'))
    .min(1)
    .max(4),
  username: z.string().min(1).max(128),
  password: z.string().min(1).max(128),
  /** Unix seconds after which the TURN server refuses them. */
  expiresAt: z.number().int().nonnegative(),
});

const v = z.literal(RENDEZVOUS_VERSION);
const reason = z.string().max(L.MAX_REASON_CHARS);

/** Messages a client (host or guest) sends to the service. */
export const clientMessageSchema = z.discriminatedUnion('kind', [
  /** New room (no id) or the same room again after a restart or a dropped connection (id and secret). */
  z.strictObject({
    v,
    kind: z.literal(RendezvousKind.REGISTER),
    room: z.strictObject({ roomId: roomIdSchema, roomSecret: roomSecretSchema }).optional(),
  }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.UNREGISTER) }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.JOIN), roomId: roomIdSchema, offer: peerOfferSchema }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.ANSWER), joinId: joinIdSchema, answer: peerOfferSchema }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.REJECT), joinId: joinIdSchema, reason }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.CANDIDATE), joinId: joinIdSchema, candidate: candidateSchema }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.END_OF_CANDIDATES), joinId: joinIdSchema }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.PING) }),
]);

/** Messages the service sends to a client. */
export const serviceMessageSchema = z.discriminatedUnion('kind', [
  /** First message on every connection: the TURN grant (null when the service mints none). */
  z.strictObject({ v, kind: z.literal(RendezvousKind.WELCOME), turn: turnGrantSchema.nullable() }),
  z.strictObject({
    v,
    kind: z.literal(RendezvousKind.REGISTERED),
    roomId: roomIdSchema,
    roomSecret: roomSecretSchema,
    /** Unix milliseconds when the room expires even if its host stays connected. */
    expiresAt: z.number().int().nonnegative(),
  }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.JOIN_REQUEST), joinId: joinIdSchema, offer: peerOfferSchema }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.JOIN_PENDING), joinId: joinIdSchema }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.ANSWER), joinId: joinIdSchema, answer: peerOfferSchema }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.CANDIDATE), joinId: joinIdSchema, candidate: candidateSchema }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.END_OF_CANDIDATES), joinId: joinIdSchema }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.PONG) }),
  z.strictObject({
    v,
    kind: z.literal(RendezvousKind.ERROR),
    code: z.enum(Object.values(RendezvousErrorCode) as [RendezvousErrorCode, ...RendezvousErrorCode[]]),
    message: z.string().max(500),
    joinId: joinIdSchema.optional(),
  }),
]);

/** ICE parameters: ufrag, password and candidate lines. */
export type IceParameters = z.output<typeof iceParametersSchema>;
/** One side's offer or answer. */
export type PeerOffer = z.output<typeof peerOfferSchema>;
/** TURN server and credentials from the service. */
export type TurnGrant = z.output<typeof turnGrantSchema>;
/** A message to the service. */
export type ClientMessage = z.output<typeof clientMessageSchema>;
/** A message from the service. */
export type ServiceMessage = z.output<typeof serviceMessageSchema>;
/** Distributes Omit over a union so each message keeps its own fields. */
type WithoutVersion<T> = T extends unknown ? Omit<T, 'v'> : never;
/** A message to the service as a caller writes it (the version is added by {@link frameMessage}). */
export type ClientMessageBody = WithoutVersion<ClientMessage>;
/** A message from the service as the service writes it. */
export type ServiceMessageBody = WithoutVersion<ServiceMessage>;
