/** Bits a room code carries: a 32-bit IPv4 address followed by a 16-bit port. */
export const ROOM_CODE_BITS = 48;

/** 2^48, one past the largest value a room code may hold (exact in a double). */
export const ROOM_CODE_VALUE_LIMIT = 2 ** ROOM_CODE_BITS;

/**
 * How many digits of an alphabet of `alphabetSize` characters are needed for any 48-bit value.
 * Equals the reference's ceil(48·ln 2 / ln size), but in integers so no rounding can add a digit.
 */
export function charCountFor(alphabetSize: number): number {
  if (!Number.isInteger(alphabetSize) || alphabetSize < 2) {
    throw new RangeError(`alphabet size must be an integer >= 2, got ${alphabetSize}`);
  }
  let digits = 0;
  let reach = 1;
  while (reach < ROOM_CODE_VALUE_LIMIT) {
    reach *= alphabetSize;
    digits += 1;
  }
  return digits;
}
