import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A resume token lets a guest that lost its link take its seat back without a click. It is bytes in base64url:
 * version (1) | room id (8) | seat (2) | issued at, seconds (4) | nonce (16) | HMAC-SHA256 tag, first 16 bytes.
 * The room id and seat are readable (so a refusal can say "another room"), the tag binds them to the room's key,
 * and the nonce is the seat's current one, so a token answers once.
 */
export const RESUME_TOKEN = {
  VERSION: 1,
  ROOM_ID_BYTES: 8,
  NONCE_BYTES: 16,
  TAG_BYTES: 16,
  /** Bytes of a whole token: 1 + 8 + 2 + 4 + 16 + 16. */
  BYTES: 47,
  /** Characters of a whole token in unpadded base64url. */
  CHARS: 63,
} as const;

const BODY_BYTES = RESUME_TOKEN.BYTES - RESUME_TOKEN.TAG_BYTES;

/** The readable parts of a token. */
export interface ResumeTokenFields {
  readonly roomId: Buffer;
  readonly seat: number;
  /** Issue time in whole seconds of the issuer's clock. */
  readonly issuedAtSec: number;
  readonly nonce: Buffer;
}

/** Why a token was refused: the guest joins afresh (or is told why it cannot). */
export type ResumeRefusal = 'malformed' | 'other-room' | 'forged' | 'expired' | 'no-seat' | 'used' | 'other-address';

/** The verdict on a presented token. */
export type ResumeVerdict =
  { readonly ok: true; readonly seat: number } | { readonly ok: false; readonly reason: ResumeRefusal };

/** What the room remembers of the token it last gave a seat. */
export interface IssuedSeat {
  readonly nonce: Buffer;
  /** The guest's IP when the token was issued (not its port: a new socket gets a new one). */
  readonly address: string;
}

/** Everything {@link checkResumeToken} weighs a token against: the room's secrets, the time and the seat table. */
export interface ResumeCheck {
  readonly roomId: Buffer;
  readonly key: Buffer;
  /** Now, in milliseconds of the issuer's clock. */
  readonly nowMs: number;
  /** How long a token lives after it was issued. */
  readonly maxAgeMs: number;
  /** The IP the token is presented from. */
  readonly address: string;
  /** The seat's current token, or undefined when the room has no such seat to give back. */
  readonly seatOf: (seat: number) => IssuedSeat | undefined;
}

function tagOf(key: Buffer, body: Buffer): Buffer {
  return createHmac('sha256', key).update(body).digest().subarray(0, RESUME_TOKEN.TAG_BYTES);
}

/** Builds a token's text for its fields, tagged with the room's key. Pure. */
export function encodeResumeToken(key: Buffer, fields: ResumeTokenFields): string {
  if (fields.roomId.length !== RESUME_TOKEN.ROOM_ID_BYTES || fields.nonce.length !== RESUME_TOKEN.NONCE_BYTES) {
    throw new RangeError('a resume token takes an 8-byte room id and a 16-byte nonce');
  }
  if (!Number.isInteger(fields.seat) || fields.seat < 0 || fields.seat > 0xffff) {
    throw new RangeError(`seat must be 0–65535, got ${fields.seat}`);
  }
  const body = Buffer.alloc(BODY_BYTES);
  body.writeUInt8(RESUME_TOKEN.VERSION, 0);
  fields.roomId.copy(body, 1);
  body.writeUInt16BE(fields.seat, 9);
  body.writeUInt32BE(fields.issuedAtSec >>> 0, 11);
  fields.nonce.copy(body, 15);
  return Buffer.concat([body, tagOf(key, body)]).toString('base64url');
}

/** Reads a token's fields and tag, or undefined for anything that is not a token of this version. */
export function decodeResumeToken(text: unknown): (ResumeTokenFields & { body: Buffer; tag: Buffer }) | undefined {
  if (typeof text !== 'string' || text.length !== RESUME_TOKEN.CHARS || !/^[A-Za-z0-9_-]+$/.test(text)) {
    return undefined;
  }
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length !== RESUME_TOKEN.BYTES || bytes.readUInt8(0) !== RESUME_TOKEN.VERSION) return undefined;
  return {
    roomId: bytes.subarray(1, 9),
    seat: bytes.readUInt16BE(9),
    issuedAtSec: bytes.readUInt32BE(11),
    nonce: bytes.subarray(15, BODY_BYTES),
    body: bytes.subarray(0, BODY_BYTES),
    tag: bytes.subarray(BODY_BYTES),
  };
}

/**
 * Weighs a presented token: well formed, this room's, tagged with its key, not expired, for a seat the room holds,
 * that seat's current token (so a used one is refused) and presented from the address it was given to. Pure.
 */
export function checkResumeToken(text: unknown, check: ResumeCheck): ResumeVerdict {
  const token = decodeResumeToken(text);
  if (token === undefined) return { ok: false, reason: 'malformed' };
  if (!token.roomId.equals(check.roomId)) return { ok: false, reason: 'other-room' };
  if (!timingSafeEqual(token.tag, tagOf(check.key, token.body))) return { ok: false, reason: 'forged' };
  const ageMs = check.nowMs - token.issuedAtSec * 1000;
  // A token from the future (a clock that went back) is as suspect as an old one.
  if (ageMs > check.maxAgeMs || ageMs < -1000) return { ok: false, reason: 'expired' };
  const issued = check.seatOf(token.seat);
  if (issued === undefined) return { ok: false, reason: 'no-seat' };
  if (!timingSafeEqual(issued.nonce, token.nonce)) return { ok: false, reason: 'used' };
  if (issued.address !== check.address) return { ok: false, reason: 'other-address' };
  return { ok: true, seat: token.seat };
}
