/*
 * Short LAN codes: only what the guest's own network does not already say. A guest on the host's subnet knows
 * the network prefix, so the code carries the host part of the address (the bits under the host's netmask) and
 * the port only when it is not LAN Party's default. The value is written in Crockford base32 (4–6 characters,
 * so it is visibly shorter than the 10 of a full code) followed by one check character from the same quasigroup
 * scheme as checkCharacter.ts, which refuses every single wrong character and every swap of two neighbours.
 *
 * Value layout, least significant bit first: a flag (1 = a port follows), then the port (16 bits, only with the
 * flag), then the host part. A guest's network tells it the prefix length, so the code does not.
 */
import { LAN_PARTY_PORTS } from '../netcheck/ports';
import { checkDigit, hasValidCheckDigit } from './checkCharacter';
import { formatIpv4, parseIpv4 } from './ipv4';
import { RoomCodeError, RoomCodeErrorReason } from './roomCodeError';
import { CROCKFORD_BASE32 } from './roomCodeFormat';

/** Short-code constants: lengths, the port left out, and the netmask range a short code can describe. */
export const SHORT_CODE = {
  /** Fewest data characters (short values are padded with zeros so every code looks alike). */
  MIN_DATA_CHARS: 4,
  /** Most data characters: 30 bits. */
  MAX_DATA_CHARS: 6,
  /** The port a code without one stands for. */
  DEFAULT_PORT: LAN_PARTY_PORTS.GAME,
  /** Longest netmask with room for hosts (/31 and /32 have no host part to encode). */
  MAX_PREFIX: 30,
  /** Shortest netmask trusted as a LAN, as for discovery targets. */
  MIN_PREFIX: 8,
} as const;

const BASE = CROCKFORD_BASE32.length;
const VALUE_LIMIT = BASE ** SHORT_CODE.MAX_DATA_CHARS;

/** Typed characters read as the digit they look like (Crockford's decoding rules). */
const LOOKALIKE_DIGITS: Readonly<Record<string, string>> = { O: '0', I: '1', L: '1' };

/** Characters a short code skips when reading: whitespace and the separators people type. */
const SKIPPED = /[\s\-._/]/u;

/** What a short code stands for: the host's bits within its subnet and the game port. */
export interface ShortCodeParts {
  /** The address bits under the host's netmask (address & ~mask). */
  readonly hostPart: number;
  readonly port: number;
  /** Whether the code carried the port (false: it is {@link SHORT_CODE.DEFAULT_PORT}). */
  readonly explicitPort: boolean;
}

/** Why an address cannot have a short code. */
export type ShortCodeUnavailable = 'no-host-part' | 'too-large' | 'invalid-address';

/** A short code, or why this address cannot have one. */
export type ShortCodeResult =
  { readonly ok: true; readonly code: string } | { readonly ok: false; readonly reason: ShortCodeUnavailable };

/** The prefix length of a contiguous netmask, or undefined for a mask with holes. */
export function prefixLengthOf(mask: number): number | undefined {
  let bits = 0;
  while (bits < 32 && (mask & (0x80000000 >>> bits)) !== 0) bits += 1;
  const expected = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return mask >>> 0 === expected ? bits : undefined;
}

/** Digits of a short code's value, most significant first, at least MIN_DATA_CHARS long. */
function digitsOf(value: number): number[] {
  const digits: number[] = [];
  let rest = value;
  while (rest > 0) {
    digits.unshift(rest % BASE);
    rest = Math.floor(rest / BASE);
  }
  while (digits.length < SHORT_CODE.MIN_DATA_CHARS) digits.unshift(0);
  return digits;
}

/**
 * The short code for a host address under its interface's netmask and its game port. Refused (with the
 * reason) for /31 and /32 interfaces, masks shorter than /8 or with holes, and values above 30 bits (a wide
 * subnet together with a port other than the default): those hosts share the full code instead.
 */
export function encodeShortCode(address: string, netmask: string, port: number): ShortCodeResult {
  const ip = parseIpv4(address);
  const mask = parseIpv4(netmask);
  if (ip === undefined || mask === undefined || !Number.isInteger(port) || port < 1 || port > 65535) {
    return { ok: false, reason: 'invalid-address' };
  }
  const prefix = prefixLengthOf(mask);
  if (prefix === undefined || prefix < SHORT_CODE.MIN_PREFIX || prefix > SHORT_CODE.MAX_PREFIX) {
    return { ok: false, reason: 'no-host-part' };
  }
  const hostPart = (ip & ~mask) >>> 0;
  const value = port === SHORT_CODE.DEFAULT_PORT ? hostPart * 2 : (hostPart * 65536 + port) * 2 + 1;
  if (value >= VALUE_LIMIT) return { ok: false, reason: 'too-large' };
  const digits = digitsOf(value);
  digits.push(checkDigit(digits, BASE));
  return { ok: true, code: digits.map((digit) => CROCKFORD_BASE32[digit] ?? '').join('') };
}

/** Typed text reduced to base32 digits, with Crockford's folding; characters that are neither are kept aside. */
export interface ScannedShortCode {
  readonly digits: readonly number[];
  readonly rejected: readonly { readonly character: string; readonly position: number }[];
}

/** Reads typed text: skips spaces and separators, folds case, reads O as 0 and I/L as 1. */
export function scanCrockford(input: string): ScannedShortCode {
  const digits: number[] = [];
  const rejected: { character: string; position: number }[] = [];
  let position = 0;
  for (const character of input) {
    position += 1;
    if (SKIPPED.test(character)) continue;
    const upper = character.toUpperCase();
    const digit = CROCKFORD_BASE32.indexOf(LOOKALIKE_DIGITS[upper] ?? upper);
    // indexOf on a multi-character string (a case mapping like ß → SS) can only miss or match a wrong run.
    if (digit < 0 || upper.length !== 1) rejected.push({ character, position });
    else digits.push(digit);
  }
  return { digits, rejected };
}

/** The sentence for a typed character that no code uses, with the look-alike to type instead when there is one. */
export function notInCodesMessage(character: string, position: number): string {
  const instead = character.toUpperCase() === 'U' ? " (did you mean 'V'?)" : '';
  return `'${character}' at position ${position} is not used in room codes${instead}`;
}

/** Characters in a complete short code, check character included. */
export const SHORT_CODE_LENGTHS = { min: SHORT_CODE.MIN_DATA_CHARS + 1, max: SHORT_CODE.MAX_DATA_CHARS + 1 } as const;

/** Whether this many code characters is a short code's length. */
export function isShortCodeLength(characters: number): boolean {
  return characters >= SHORT_CODE_LENGTHS.min && characters <= SHORT_CODE_LENGTHS.max;
}

/**
 * Decodes a short code as typed (any case, spaces, dashes, O for 0, I or L for 1). Throws a RoomCodeError
 * naming a character that is not in the alphabet, a wrong length, or a check mismatch (a typo).
 */
export function decodeShortCode(input: string): ShortCodeParts {
  const { digits, rejected } = scanCrockford(input);
  const first = rejected[0];
  if (first) {
    throw new RoomCodeError(
      RoomCodeErrorReason.INVALID_CHARACTER,
      notInCodesMessage(first.character, first.position),
      first,
    );
  }
  if (!isShortCodeLength(digits.length)) {
    throw new RoomCodeError(
      RoomCodeErrorReason.WRONG_LENGTH,
      `a short code has ${SHORT_CODE_LENGTHS.min}–${SHORT_CODE_LENGTHS.max} characters, this has ${digits.length}`,
    );
  }
  if (!hasValidCheckDigit(digits, BASE)) {
    throw new RoomCodeError(
      RoomCodeErrorReason.CHECK_MISMATCH,
      'this code has a typo: a character is wrong or two are swapped',
    );
  }
  let value = 0;
  for (const digit of digits.slice(0, -1)) value = value * BASE + digit;
  if (value % 2 === 0) return { hostPart: value / 2, port: SHORT_CODE.DEFAULT_PORT, explicitPort: false };
  const rest = (value - 1) / 2;
  const port = rest % 65536;
  if (port === 0) {
    throw new RoomCodeError(RoomCodeErrorReason.OUT_OF_RANGE, 'this code names port 0, so no room made it');
  }
  return { hostPart: Math.floor(rest / 65536), port, explicitPort: true };
}

/** One subnet of the guest's, as address and netmask (dotted quads). */
export interface GuestSubnet {
  readonly address: string;
  readonly netmask: string;
}

/**
 * The address a short code's host part names on one of the guest's subnets: that subnet's prefix plus the
 * host part, or undefined when the host part does not fit under the mask (or names the network or broadcast
 * address), or the mask is not a LAN's.
 */
export function completeShortCode(hostPart: number, subnet: GuestSubnet): string | undefined {
  const ip = parseIpv4(subnet.address);
  const mask = parseIpv4(subnet.netmask);
  if (ip === undefined || mask === undefined) return undefined;
  const prefix = prefixLengthOf(mask);
  if (prefix === undefined || prefix < SHORT_CODE.MIN_PREFIX || prefix > SHORT_CODE.MAX_PREFIX) return undefined;
  const hostMask = ~mask >>> 0;
  if (!Number.isInteger(hostPart) || hostPart <= 0 || hostPart >= hostMask) return undefined;
  return formatIpv4(((ip & mask) | hostPart) >>> 0);
}
