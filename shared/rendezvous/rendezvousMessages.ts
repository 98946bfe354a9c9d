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
  /**
   * The host checked the guest's confirmation (the code was proved): the only thing that earns TURN credentials,
   * one grant for each side's ICE session of that join, each sent as a `turn` message naming the join.
   */
  ACCEPT: 'accept',
  PING: 'ping',
  // service → client
  WELCOME: 'welcome',
  REGISTERED: 'registered',
  /** A side's TURN grant for one accepted join, to the host and to the guest (null: none minted, or over the caps). */
  TURN: 'turn',
  JOIN_REQUEST: 'join-request',
  JOIN_PENDING: 'join-pending',
  PONG: 'pong',
  ERROR: 'error',
  // forwarded between the two sides of one join, opaque to the service
  /** The guest's key confirmation: proves the code to the host. */
  CONFIRM: 'confirm',
  /** Sealed ICE parameters, both ways, once the host accepted the join. */
  SIGNAL: 'signal',
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

/** A CPace message of the join's key agreement (main/net/secure/keyAgreement.ts), base64url. */
export const pakeSchema = z.string().min(40).max(400).regex(BASE64URL, 'not base64url');

/** Signalling sealed under the agreement's keys (main/net/secure/signalSeal.ts), base64url. */
export const sealedSchema = z.string().min(38).max(L.MAX_SEALED_CHARS).regex(BASE64URL, 'not base64url');

/** One ICE candidate line (SDP attribute value, no `candidate:` prefix needed); printable ASCII only. */
export const candidateSchema = z
  .string()
  .min(1)
  .max(L.MAX_CANDIDATE_CHARS)
  .regex(/^[\x20-\x7e]+$/, 'not printable ASCII');

/** ICE parameters as the ICE session gathers them (inside a sealed signal: the service never reads them). */
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

/** `turn:host:port` or `turns:host:port`, optionally `?transport=tcp`. */
const turnUrlSchema = z.string().regex(/^turns?:[\x21-\x7e]{1,200}$/, 'not a turn: URL');

/** A TURN server with time-limited credentials the service minted for one side's ICE session of an accepted join. */
export const turnGrantSchema = z.strictObject({
  urls: z.array(turnUrlSchema).min(1).max(4),
  username: z.string().min(1).max(128),
  password: z.string().min(1).max(128),
  /** Unix seconds after which the TURN server refuses them. */
  expiresAt: z.number().int().nonnegative(),
});

const v = z.literal(RENDEZVOUS_VERSION);
const reason = z.string().max(L.MAX_REASON_CHARS);

/** The guest's confirmation and the sealed signals: forwarded as they are, so one schema both ways. */
const confirmSchema = z.strictObject({
  v,
  kind: z.literal(RendezvousKind.CONFIRM),
  joinId: joinIdSchema,
  pake: pakeSchema,
});
const signalSchema = z.strictObject({
  v,
  kind: z.literal(RendezvousKind.SIGNAL),
  joinId: joinIdSchema,
  sealed: sealedSchema,
});

/** Messages a client (host or guest) sends to the service. */
export const clientMessageSchema = z.discriminatedUnion('kind', [
  /** New room (no id) or the same room again after a restart or a dropped connection (id and secret). */
  z.strictObject({
    v,
    kind: z.literal(RendezvousKind.REGISTER),
    room: z.strictObject({ roomId: roomIdSchema, roomSecret: roomSecretSchema }).optional(),
  }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.UNREGISTER) }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.JOIN), roomId: roomIdSchema, pake: pakeSchema }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.ANSWER), joinId: joinIdSchema, pake: pakeSchema }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.REJECT), joinId: joinIdSchema, reason }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.ACCEPT), joinId: joinIdSchema }),
  confirmSchema,
  signalSchema,
  z.strictObject({ v, kind: z.literal(RendezvousKind.PING) }),
]);

/** Messages the service sends to a client. */
export const serviceMessageSchema = z.discriminatedUnion('kind', [
  /**
   * First message on every connection: the TURN servers' URLs for STUN (the network check), without
   * credentials (an anonymous connection gets none).
   */
  z.strictObject({ v, kind: z.literal(RendezvousKind.WELCOME), relays: z.array(turnUrlSchema).max(4) }),
  z.strictObject({
    v,
    kind: z.literal(RendezvousKind.REGISTERED),
    roomId: roomIdSchema,
    roomSecret: roomSecretSchema,
    /** Unix milliseconds when the room expires even if its host stays connected. */
    expiresAt: z.number().int().nonnegative(),
  }),
  z.strictObject({
    v,
    kind: z.literal(RendezvousKind.TURN),
    joinId: joinIdSchema,
    turn: turnGrantSchema.nullable(),
  }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.JOIN_REQUEST), joinId: joinIdSchema, pake: pakeSchema }),
  z.strictObject({ v, kind: z.literal(RendezvousKind.JOIN_PENDING), joinId: joinIdSchema }),
  /** The host's answer: no TURN grant yet, since nothing is proved until the guest's confirmation checks. */
  z.strictObject({ v, kind: z.literal(RendezvousKind.ANSWER), joinId: joinIdSchema, pake: pakeSchema }),
  confirmSchema,
  signalSchema,
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
