import { checkDigit, hasValidCheckDigit } from '../roomCode/checkCharacter';
import { CROCKFORD_BASE32 } from '../roomCode/roomCodeFormat';
import { ROOM_ID_CHARS } from './rendezvousMessages';

/**
 * Internet room codes: `NET-` then 16 Crockford base32 characters in groups of four, e.g. `NET-7K2M-Q9XA-4H0R-BN3T`.
 * They carry the room id the rendezvous service gave the host (6 characters) and a check of the host's X25519
 * public key (9 characters, 45 bits of its SHA-256), then one check character. The guest compares the key the
 * rendezvous forwards with the check, so the service cannot swap in a key of its own without 2^45 tries at
 * matching it. The service's address is not in the code: it comes from the guest's settings, so a code read
 * aloud stays short (and two friends share one service anyway).
 */
export const INTERNET_CODE_PREFIX = 'NET-';

/** Characters of the key check in a code. */
export const KEY_CHECK_CHARS = 9;

/** Alphabet characters after the prefix: room id, key check, check character. */
export const INTERNET_CODE_CHARS = ROOM_ID_CHARS + KEY_CHECK_CHARS + 1;

/** Bytes of a key digest {@link keyCheckOf} needs (45 bits are used). */
export const KEY_DIGEST_MIN_BYTES = 6;

/** A decoded internet code. */
export interface InternetCode {
  readonly roomId: string;
  /** The key check, 9 upper-case Crockford characters; compare with {@link keyCheckOf} of the host key's digest. */
  readonly keyCheck: string;
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

/** The 9-character key check of a key digest (SHA-256 of the public key): its first 45 bits, most significant first. */
export function keyCheckOf(digest: Uint8Array): string {
  if (digest.length < KEY_DIGEST_MIN_BYTES) throw new RangeError(`key digest needs ${KEY_DIGEST_MIN_BYTES} bytes`);
  let bits = 0n;
  for (let i = 0; i < KEY_DIGEST_MIN_BYTES; i++) bits = (bits << 8n) | BigInt(digest[i] ?? 0);
  bits >>= BigInt(KEY_DIGEST_MIN_BYTES * 8 - KEY_CHECK_CHARS * 5);
  let out = '';
  for (let i = KEY_CHECK_CHARS - 1; i >= 0; i--) out += ALPHABET[Number((bits >> BigInt(i * 5)) & 31n)];
  return out;
}

function digitsOf(text: string): number[] {
  return Array.from(text, (ch) => ALPHABET.indexOf(ch));
}

/** The code for a room id and the digest of the host's public key. */
export function encodeInternetCode(roomId: string, keyDigest: Uint8Array): string {
  if (!new RegExp(`^[${ALPHABET}]{${ROOM_ID_CHARS}}$`).test(roomId)) throw new RangeError('not a room id');
  const body = roomId + keyCheckOf(keyDigest);
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
      keyCheck: text.slice(ROOM_ID_CHARS, ROOM_ID_CHARS + KEY_CHECK_CHARS),
    },
  };
}
