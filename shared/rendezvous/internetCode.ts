import { checkDigit, hasValidCheckDigit } from '../roomCode/checkCharacter';
import { CROCKFORD_BASE32 } from '../roomCode/roomCodeFormat';
import { ROOM_ID_CHARS } from './rendezvousMessages';

/**
 * Internet room codes: `NET-` then 16 Crockford base32 characters in groups of four, e.g. `NET-7K2M-Q9XA-4H0R-BN3T`.
 * They carry the room id the rendezvous service gave the host (6 characters) and the room's secret (9 random
 * characters, 45 bits), then one check character. The secret is the password of the join's CPace exchange
 * (main/net/secure/keyAgreement.ts): it never travels, a rendezvous or relay in the middle gets one online guess
 * per join (which the host counts) and nothing to test guesses against offline. The service's address is not
 * in the code: it comes from the guest's settings, so a code read aloud stays short.
 */
export const INTERNET_CODE_PREFIX = 'NET-';

/** Characters of the room secret in a code. */
export const CODE_SECRET_CHARS = 9;

/** Alphabet characters after the prefix: room id, secret, check character. */
export const INTERNET_CODE_CHARS = ROOM_ID_CHARS + CODE_SECRET_CHARS + 1;

/** A decoded internet code. */
export interface InternetCode {
  readonly roomId: string;
  /** The room secret, 9 upper-case Crockford characters: the PAKE password. */
  readonly secret: string;
}

/** A decoded code, or why the text is not one. */
export type InternetCodeParse =
  { readonly ok: true; readonly code: InternetCode } | { readonly ok: false; readonly reason: string };

const ALPHABET = CROCKFORD_BASE32;
const RADIX = ALPHABET.length;
// Characters people type for others: Crockford's reading rules.
const LOOKALIKES: Readonly<Record<string, string>> = { O: '0', I: '1', L: '1' };
// Separators skipped anywhere (spaces, dashes, dots, underscores), and the longest input looked at.
const SEPARATORS = /[\s\-._]/g;
const MAX_INPUT_CHARS = 64;

/** A fresh room secret from `random` (9 bytes drawn, 5 bits of each used). */
export function newCodeSecret(random: (size: number) => Uint8Array): string {
  return Array.from(random(CODE_SECRET_CHARS), (b) => ALPHABET[b & 31]).join('');
}

function digitsOf(text: string): number[] {
  return Array.from(text, (ch) => ALPHABET.indexOf(ch));
}

/** The code for a room id and its secret. */
export function encodeInternetCode(roomId: string, secret: string): string {
  if (!new RegExp(`^[${ALPHABET}]{${ROOM_ID_CHARS}}$`).test(roomId)) throw new RangeError('not a room id');
  if (!new RegExp(`^[${ALPHABET}]{${CODE_SECRET_CHARS}}$`).test(secret)) throw new RangeError('not a room secret');
  const body = roomId + secret;
  const full = body + ALPHABET[checkDigit(digitsOf(body), RADIX)];
  return INTERNET_CODE_PREFIX + (full.match(/.{1,4}/g) ?? []).join('-');
}

/**
 * Whether typed text is meant as an internet code: the join field's hook. A LAN code could itself begin with
 * the letters NET, so it takes `NET` followed by a separator (as codes are shown), or text longer than any
 * LAN code (12 characters) that starts with NET.
 */
export function looksLikeInternetCode(text: string): boolean {
  const trimmed = text.trimStart().toUpperCase();
  if (/^NET[\s\-._]/.test(trimmed)) return true;
  const bare = trimmed.replace(SEPARATORS, '');
  return bare.startsWith('NET') && bare.length > 12;
}

/**
 * Reads a code as people type it: any case, spaces, dashes, dots or underscores anywhere, O for 0 and I or L
 * for 1, with or without the `NET` prefix. Refuses, with a reason, a wrong length, a character outside the
 * alphabet, or a check character that does not match (one mistyped character or two swapped neighbours).
 */
export function decodeInternetCode(input: string): InternetCodeParse {
  if (input.length > MAX_INPUT_CHARS) return { ok: false, reason: 'too long for an internet code' };
  let text = input.toUpperCase().replace(SEPARATORS, '');
  if (text.startsWith('NET')) text = text.slice(3);
  text = Array.from(text, (ch) => LOOKALIKES[ch] ?? ch).join('');
  const bad = Array.from(text).find((ch) => !ALPHABET.includes(ch));
  if (bad !== undefined) return { ok: false, reason: `“${bad}” is not in an internet code` };
  if (text.length !== INTERNET_CODE_CHARS) {
    return {
      ok: false,
      reason: `an internet code has ${INTERNET_CODE_CHARS} characters after NET-, this has ${text.length}`,
    };
  }
  if (!hasValidCheckDigit(digitsOf(text), RADIX)) {
    return { ok: false, reason: 'a character is mistyped (the check character does not match)' };
  }
  return {
    ok: true,
    code: {
      roomId: text.slice(0, ROOM_ID_CHARS),
      secret: text.slice(ROOM_ID_CHARS, ROOM_ID_CHARS + CODE_SECRET_CHARS),
    },
  };
}
