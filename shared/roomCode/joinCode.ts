import { decode, type RoomAddress } from './decode';
import { RoomCodeError, RoomCodeErrorReason } from './roomCodeError';
import { CROCKFORD_BASE32, DEFAULT_ROOM_CODE_FORMAT } from './roomCodeFormat';
import {
  decodeShortCode,
  isShortCodeLength,
  notInCodesMessage,
  scanCrockford,
  SHORT_CODE_LENGTHS,
  type ShortCodeParts,
} from './shortCode';

/** A code typed into the join field: a short LAN code (completed from the guest's networks) or a full code. */
export type JoinCode = ({ readonly kind: 'short' } & ShortCodeParts) | ({ readonly kind: 'full' } & RoomAddress);

/** Alphabet characters in a full (gale.net) code. */
export const FULL_CODE_LENGTH = DEFAULT_ROOM_CODE_FORMAT.charCount;

/** How many code characters typed text holds (Crockford folding: O, I and L count as digits). */
export function joinCodeLength(input: string): number {
  return scanCrockford(input).digits.length;
}

/**
 * Reads what a player typed as a join code. Its length tells the kind: 5–7 characters are a short LAN code,
 * 10 a full gale.net code (decoded by the reference decoder once O, I and L are read as 0, 1, 1, which the
 * reference would refuse outright). Throws a RoomCodeError with a sentence-ready message.
 */
export function parseJoinCode(input: string): JoinCode {
  const { digits, rejected } = scanCrockford(input);
  const first = rejected[0];
  if (first) {
    throw new RoomCodeError(
      RoomCodeErrorReason.INVALID_CHARACTER,
      notInCodesMessage(first.character, first.position),
      first,
    );
  }
  if (isShortCodeLength(digits.length)) return { kind: 'short', ...decodeShortCode(input) };
  if (digits.length === FULL_CODE_LENGTH) {
    const folded = digits.map((digit) => CROCKFORD_BASE32[digit] ?? '').join('');
    return { kind: 'full', ...decode(folded) };
  }
  throw new RoomCodeError(
    RoomCodeErrorReason.WRONG_LENGTH,
    `a room code has ${SHORT_CODE_LENGTHS.min}–${SHORT_CODE_LENGTHS.max} characters (a short LAN code) or ` +
      `${FULL_CODE_LENGTH} (a full code); this has ${digits.length}`,
  );
}
