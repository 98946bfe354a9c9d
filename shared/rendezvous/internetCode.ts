import { checkDigit, hasValidCheckDigit } from '../roomCode/checkCharacter';
import { CROCKFORD_BASE32 } from '../roomCode/roomCodeFormat';
import { formatIpv4, parseIpv4 } from '../roomCode/ipv4';
import { ROOM_ID_CHARS } from './rendezvousMessages';

/**
 * Internet room codes: `NET-` then Crockford base32 characters in groups of four; their length says which kind
 * of room they lead to, so whoever shares one never chooses:
 * - a rendezvous room, 16 characters, e.g. `NET-7K2M-Q9XA-4H0R-BN3T`: the room id the rendezvous service gave
 *   the host (6 characters) and the room's secret (9 random characters, 45 bits), then one check character. The
 *   service's address is not in the code: it comes from the guest's settings, so a code read aloud stays short.
 * - a direct room (its router maps a port), 21 characters: `D`, the public IPv4 address and port (48 bits in 10
 *   characters), the secret, the check character.
 * - a DHT room (it listens on the public HyperDHT, issue 40), 63 characters: `K`, the host's 32-byte public key (256
 *   bits in 52 characters), the secret, the check character. The key is fresh for each room, never derived from
 *   the secret: a key anyone could compute from a short code could be squatted.
 * Kinds after these start with their own letter. The secret is the password of the join's
 * CPace exchange (main/net/secure/keyAgreement.ts): it never travels, anyone in the middle gets one online guess
 * per join (which the host counts) and nothing to test guesses against offline.
 */
export const INTERNET_CODE_PREFIX = 'NET-';

/** Characters of the room secret in a code. */
export const CODE_SECRET_CHARS = 9;

/** Alphabet characters after the prefix of a rendezvous room's code: room id, secret, check character. */
export const INTERNET_CODE_CHARS = ROOM_ID_CHARS + CODE_SECRET_CHARS + 1;

/** The letter a direct room's code starts with. */
export const DIRECT_CODE_KIND = 'D';
/** Characters of a direct code's address and port: 48 bits. */
const DIRECT_ADDRESS_CHARS = 10;
/** Alphabet characters after the prefix of a direct room's code: kind, address and port, secret, check character. */
export const DIRECT_CODE_CHARS = 1 + DIRECT_ADDRESS_CHARS + CODE_SECRET_CHARS + 1;

/** The letter a DHT room's code starts with. */
export const DHT_CODE_KIND = 'K';
/** Bytes of a DHT room's public key. */
export const DHT_KEY_BYTES = 32;
/** Characters of a DHT code's key: 256 bits, 5 a character, the top 4 bits zero. */
const DHT_KEY_CHARS = Math.ceil((DHT_KEY_BYTES * 8) / 5);
/** Alphabet characters after the prefix of a DHT room's code: kind, public key, secret, check character. */
export const DHT_CODE_CHARS = 1 + DHT_KEY_CHARS + CODE_SECRET_CHARS + 1;

/** A decoded rendezvous room's code. */
export interface InternetCode {
  readonly roomId: string;
  /** The room secret, 9 upper-case Crockford characters: the PAKE password. */
  readonly secret: string;
}

/** A decoded direct room's code: where its router forwards to the room, and the secret. */
export interface DirectCode {
  /** The router's public IPv4 address. */
  readonly address: string;
  readonly port: number;
  readonly secret: string;
}

/** A decoded DHT room's code: the public key its host listens on, and the secret. */
export interface DhtCode {
  /** The host's public key for this room, 64 lower-case hex digits. */
  readonly publicKey: string;
  readonly secret: string;
}

/** Any internet code, by kind. */
export type InternetInvite =
  | { readonly kind: 'rendezvous'; readonly code: InternetCode }
  | { readonly kind: 'direct'; readonly code: DirectCode }
  | { readonly kind: 'dht'; readonly code: DhtCode };

/** A decoded rendezvous code, or why the text is not one. */
export type InternetCodeParse =
  { readonly ok: true; readonly code: InternetCode } | { readonly ok: false; readonly reason: string };

/** A decoded internet code of any kind, or why the text is not one. */
export type InternetInviteParse =
  { readonly ok: true; readonly invite: InternetInvite } | { readonly ok: false; readonly reason: string };

const ALPHABET = CROCKFORD_BASE32;
const RADIX = ALPHABET.length;
// Characters people type for others: Crockford's reading rules.
const LOOKALIKES: Readonly<Record<string, string>> = { O: '0', I: '1', L: '1' };
// Separators skipped anywhere (spaces, dashes, dots, underscores), and the longest input looked at.
const SEPARATORS = /[\s\-._]/g;
const MAX_INPUT_CHARS = 96;

/** A fresh room secret from `random` (9 bytes drawn, 5 bits of each used). */
export function newCodeSecret(random: (size: number) => Uint8Array): string {
  return Array.from(random(CODE_SECRET_CHARS), (b) => ALPHABET[b & 31]).join('');
}

function digitsOf(text: string): number[] {
  return Array.from(text, (ch) => ALPHABET.indexOf(ch));
}

function checkSecret(secret: string): void {
  if (!new RegExp(`^[${ALPHABET}]{${CODE_SECRET_CHARS}}$`).test(secret)) throw new RangeError('not a room secret');
}

/** `NET-` and the body with its check character, in groups of four. */
function withCheck(body: string): string {
  const full = body + ALPHABET[checkDigit(digitsOf(body), RADIX)];
  return INTERNET_CODE_PREFIX + (full.match(/.{1,4}/g) ?? []).join('-');
}

/** The code for a room id and its secret. */
export function encodeInternetCode(roomId: string, secret: string): string {
  if (!new RegExp(`^[${ALPHABET}]{${ROOM_ID_CHARS}}$`).test(roomId)) throw new RangeError('not a room id');
  checkSecret(secret);
  return withCheck(roomId + secret);
}

/** The code of a direct room: its public IPv4 address and port, and its secret. */
export function encodeDirectCode(address: string, port: number, secret: string): string {
  const ip = parseIpv4(address);
  if (ip === undefined) throw new RangeError('not an IPv4 address');
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError('not a port');
  checkSecret(secret);
  // 48 bits, most significant first, in 10 characters (the top two bits are zero).
  let value = ip * 65536 + port;
  const chars: string[] = [];
  for (let i = 0; i < DIRECT_ADDRESS_CHARS; i += 1) {
    chars.unshift(ALPHABET[value % RADIX]!);
    value = Math.floor(value / RADIX);
  }
  return withCheck(DIRECT_CODE_KIND + chars.join('') + secret);
}

/** The code of a DHT room: its host's public key (64 hex digits) and its secret. */
export function encodeDhtCode(publicKey: string, secret: string): string {
  if (!/^[0-9a-f]{64}$/i.test(publicKey)) throw new RangeError('not a 32-byte public key in hex');
  checkSecret(secret);
  // 256 bits after 4 zero bits, 5 bits a character, most significant first.
  const bits = '0000' + Array.from(publicKey, (h) => parseInt(h, 16).toString(2).padStart(4, '0')).join('');
  const chars = (bits.match(/.{5}/g) ?? []).map((five) => ALPHABET[parseInt(five, 2)]!);
  return withCheck(DHT_CODE_KIND + chars.join('') + secret);
}

function decodeDht(text: string): InternetInviteParse {
  const bits = Array.from(text.slice(1, 1 + DHT_KEY_CHARS), (ch) =>
    ALPHABET.indexOf(ch).toString(2).padStart(5, '0'),
  ).join('');
  if (!bits.startsWith('0000')) return { ok: false, reason: 'that DHT code names no key' };
  const publicKey = (bits.slice(4).match(/.{4}/g) ?? []).map((four) => parseInt(four, 2).toString(16)).join('');
  return { ok: true, invite: { kind: 'dht', code: { publicKey, secret: text.slice(1 + DHT_KEY_CHARS, -1) } } };
}

function decodeDirect(text: string): InternetInviteParse {
  let value = 0;
  for (const ch of text.slice(1, 1 + DIRECT_ADDRESS_CHARS)) value = value * RADIX + ALPHABET.indexOf(ch);
  const port = value % 65536;
  const ip = Math.floor(value / 65536);
  if (ip >= 2 ** 32 || port === 0) return { ok: false, reason: 'that direct code names no address and port' };
  return {
    ok: true,
    invite: {
      kind: 'direct',
      code: { address: formatIpv4(ip), port, secret: text.slice(1 + DIRECT_ADDRESS_CHARS, -1) },
    },
  };
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
 * Reads a code of any kind as people type it: any case, spaces, dashes, dots or underscores anywhere, O for 0
 * and I or L for 1, with or without the `NET` prefix. Refuses, with a reason, a length no kind has, a character
 * outside the alphabet, or a check character that does not match (one mistyped character or two swapped
 * neighbours).
 */
export function readInternetCode(input: string): InternetInviteParse {
  if (input.length > MAX_INPUT_CHARS) return { ok: false, reason: 'too long for an internet code' };
  let text = input.toUpperCase().replace(SEPARATORS, '');
  if (text.startsWith('NET')) text = text.slice(3);
  text = Array.from(text, (ch) => LOOKALIKES[ch] ?? ch).join('');
  const bad = Array.from(text).find((ch) => !ALPHABET.includes(ch));
  if (bad !== undefined) return { ok: false, reason: `“${bad}” is not in an internet code` };
  const direct = text.length === DIRECT_CODE_CHARS && text.startsWith(DIRECT_CODE_KIND);
  const dht = text.length === DHT_CODE_CHARS && text.startsWith(DHT_CODE_KIND);
  if (text.length !== INTERNET_CODE_CHARS && !direct && !dht) {
    return {
      ok: false,
      reason: `an internet code has ${INTERNET_CODE_CHARS}, ${DIRECT_CODE_CHARS} or ${DHT_CODE_CHARS} characters after NET-, this has ${text.length}`,
    };
  }
  if (!hasValidCheckDigit(digitsOf(text), RADIX)) {
    return { ok: false, reason: 'a character is mistyped (the check character does not match)' };
  }
  if (direct) return decodeDirect(text);
  if (dht) return decodeDht(text);
  return {
    ok: true,
    invite: {
      kind: 'rendezvous',
      code: {
        roomId: text.slice(0, ROOM_ID_CHARS),
        secret: text.slice(ROOM_ID_CHARS, ROOM_ID_CHARS + CODE_SECRET_CHARS),
      },
    },
  };
}

/** The code of a read invite in its canonical form (`NET-` and groups of four), whichever kind it is. */
export function formatInternetInvite(invite: InternetInvite): string {
  switch (invite.kind) {
    case 'direct':
      return encodeDirectCode(invite.code.address, invite.code.port, invite.code.secret);
    case 'dht':
      return encodeDhtCode(invite.code.publicKey, invite.code.secret);
    case 'rendezvous':
      return encodeInternetCode(invite.code.roomId, invite.code.secret);
  }
}

/** {@link readInternetCode} for a rendezvous room's code: a direct room's code is refused with a reason. */
export function decodeInternetCode(input: string): InternetCodeParse {
  const parsed = readInternetCode(input);
  if (!parsed.ok) return parsed;
  if (parsed.invite.kind !== 'rendezvous')
    return { ok: false, reason: `that is a ${parsed.invite.kind} room’s code, not a rendezvous room’s` };
  return { ok: true, code: parsed.invite.code };
}
