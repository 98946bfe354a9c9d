/*
 * One check character that catches every single wrong character and every swap of two neighbours.
 *
 * Digits are combined left to right with x∘y = a·x + y over a ring of the alphabet's size, and the check
 * digit is chosen so the total comes out 0. Single errors are caught because y ↦ a·x + y and x ↦ a·x + y are
 * both bijections; neighbour swaps because (c∘x)∘y − (c∘y)∘x = (a − 1)(x − y), which is non-zero when a − 1 is
 * not a zero divisor. The ring is Z_m × GF(2)[t]/(t^k + t + 1) for a size 2^k·m (m odd) with a = (2, t):
 * 2 and 1 are units mod an odd m, and t, t + 1 share no factor with t^k + t + 1 (constant term 1, odd number
 * of terms). No such a exists when k = 1, so sizes ≡ 2 (mod 4) are refused.
 */

interface CheckRing {
  readonly oddPart: number;
  readonly twoBits: number;
}

function ringFor(size: number): CheckRing {
  let oddPart = size;
  let twoBits = 0;
  while (oddPart % 2 === 0) {
    oddPart /= 2;
    twoBits += 1;
  }
  return { oddPart, twoBits };
}

/** Whether {@link checkDigit} works for an alphabet of this many characters (≥ 3 and not ≡ 2 mod 4). */
export function supportsCheckCharacter(alphabetSize: number): boolean {
  return Number.isInteger(alphabetSize) && alphabetSize >= 3 && alphabetSize % 4 !== 2;
}

/** Multiplies a polynomial over GF(2) (bits of `value`) by t, reduced modulo t^k + t + 1. */
function timesT(value: number, k: number): number {
  if (k === 0) return 0;
  const shifted = value << 1;
  const overflow = 1 << k;
  return shifted & overflow ? (shifted ^ overflow ^ 0b11) & (overflow - 1) : shifted;
}

/** x∘y = a·x + y, the quasigroup step; digits are split as hi·oddPart + lo. */
function combine(ring: CheckRing, x: number, y: number): number {
  const lo = (2 * (x % ring.oddPart) + (y % ring.oddPart)) % ring.oddPart;
  const hi = timesT(Math.floor(x / ring.oddPart), ring.twoBits) ^ Math.floor(y / ring.oddPart);
  return hi * ring.oddPart + lo;
}

function fold(ring: CheckRing, digits: readonly number[]): number {
  let interim = 0;
  for (const digit of digits) interim = combine(ring, interim, digit);
  return interim;
}

function assertSupported(alphabetSize: number): void {
  if (!supportsCheckCharacter(alphabetSize)) {
    throw new RangeError(`a check character needs an alphabet size >= 3 that is not 2 mod 4, got ${alphabetSize}`);
  }
}

/** The check digit (0..size-1) to append to `digits` so that {@link hasValidCheckDigit} accepts the result. */
export function checkDigit(digits: readonly number[], alphabetSize: number): number {
  assertSupported(alphabetSize);
  const ring = ringFor(alphabetSize);
  const interim = fold(ring, digits);
  // Solve interim∘c = 0: c = −a·interim, componentwise.
  const lo = (ring.oddPart - ((2 * (interim % ring.oddPart)) % ring.oddPart)) % ring.oddPart;
  const hi = timesT(Math.floor(interim / ring.oddPart), ring.twoBits);
  return hi * ring.oddPart + lo;
}

/** Whether the last digit of `digitsWithCheck` is the right check digit for the ones before it. */
export function hasValidCheckDigit(digitsWithCheck: readonly number[], alphabetSize: number): boolean {
  assertSupported(alphabetSize);
  return fold(ringFor(alphabetSize), digitsWithCheck) === 0;
}

/** The raw quasigroup operation, exported so tests can verify its algebra exhaustively. */
export function checkQuasigroup(alphabetSize: number, x: number, y: number): number {
  assertSupported(alphabetSize);
  return combine(ringFor(alphabetSize), x, y);
}
