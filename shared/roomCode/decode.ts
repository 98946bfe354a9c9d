import { ROOM_CODE_VALUE_LIMIT } from './charCount';
import { hasValidCheckDigit } from './checkCharacter';
import { formatIpv4 } from './ipv4';
import { RoomCodeError, RoomCodeErrorReason } from './roomCodeError';
import { DEFAULT_ROOM_CODE_FORMAT, type RoomCodeFormat } from './roomCodeFormat';
import { scanCode } from './scanCode';

/** The address a room code stands for. */
export interface RoomAddress {
  /** Dotted-quad IPv4 address. */
  readonly host: string;
  readonly port: number;
}

/** Look-alike characters people type for ones an alphabet leaves out, to suggest in the error. */
const LOOKALIKES: Readonly<Record<string, readonly string[]>> = {
  O: ['0'],
  I: ['1', 'L'],
  L: ['1', 'I'],
  U: ['V'],
  S: ['5'],
  Z: ['2'],
  B: ['8'],
};

function suggestionFor(character: string, format: RoomCodeFormat): string {
  const candidates = LOOKALIKES[character.toUpperCase()] ?? [];
  for (const candidate of candidates) {
    for (const variant of [candidate, candidate.toLowerCase()]) {
      if (format.symbols.includes(variant)) return ` (did you mean '${variant}'?)`;
    }
  }
  return '';
}

/** Decodes a room code made by {@link encode} (or the reference) with the same alphabet and group size. */
export function decode(code: string, format: RoomCodeFormat = DEFAULT_ROOM_CODE_FORMAT): RoomAddress {
  if (typeof code !== 'string') {
    throw new RoomCodeError(RoomCodeErrorReason.WRONG_LENGTH, `a room code must be text, got ${typeof code}`);
  }
  const { digits, rejected } = scanCode(code, format);
  const first = rejected[0];
  if (first) {
    throw new RoomCodeError(
      RoomCodeErrorReason.INVALID_CHARACTER,
      `room code has an invalid character '${first.character}' at position ${first.position}` +
        `${suggestionFor(first.character, format)}; allowed characters are ${format.alphabet}`,
      first,
    );
  }
  if (digits.length !== format.charCount) {
    throw new RoomCodeError(
      RoomCodeErrorReason.WRONG_LENGTH,
      `room code has ${digits.length} characters, expected ${format.charCount}` +
        (digits.length < format.charCount ? ' (some are missing)' : ' (too many)'),
    );
  }
  const base = format.symbols.length;
  if (format.checkCharacter && !hasValidCheckDigit(digits, base)) {
    throw new RoomCodeError(
      RoomCodeErrorReason.CHECK_MISMATCH,
      'room code check character does not match: a character is wrong or two are swapped',
    );
  }
  let value = 0;
  for (const digit of digits.slice(0, format.dataCharCount)) {
    // Checked before multiplying so the value never leaves the exact range of a double.
    if (value > Math.floor((ROOM_CODE_VALUE_LIMIT - 1 - digit) / base)) {
      throw new RoomCodeError(
        RoomCodeErrorReason.OUT_OF_RANGE,
        'room code is too large to hold an address and port (more than 48 bits): it was not made with this format',
      );
    }
    value = value * base + digit;
  }
  return { host: formatIpv4(Math.floor(value / 65536)), port: value % 65536 };
}
