/** Modular sequence-number arithmetic: sequences wrap at a modulus, so "newer" means "less than half the ring ahead". */

/** The default sequence ring: unsigned 32-bit, like gale.net v1 wire sequences. */
export const UINT32_SEQUENCE_MODULUS = 2 ** 32;

/** Throws unless `modulus` is a safe integer ≥ 4 (smaller rings cannot tell newer from older). */
export function assertSequenceModulus(modulus: number): void {
  if (!Number.isSafeInteger(modulus) || modulus < 4) {
    throw new RangeError(`sequence modulus must be a safe integer >= 4, got ${String(modulus)}`);
  }
}

/** Whether `value` is a valid sequence on the ring: an integer in [0, modulus). */
export function isValidSequence(value: unknown, modulus: number = UINT32_SEQUENCE_MODULUS): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < modulus;
}

/** Throws a clear RangeError unless `value` is a valid sequence; `what` names it in the message. */
export function assertSequence(value: unknown, modulus: number = UINT32_SEQUENCE_MODULUS, what = 'sequence'): number {
  if (!isValidSequence(value, modulus)) {
    throw new RangeError(`${what} must be an integer in [0, ${modulus}), got ${String(value)}`);
  }
  return value;
}

/** How far `to` is ahead of `from` going forward round the ring, in [0, modulus). */
export function sequenceDistance(from: number, to: number, modulus: number = UINT32_SEQUENCE_MODULUS): number {
  return (((to - from) % modulus) + modulus) % modulus;
}

/** `sequence + step` wrapped onto the ring. */
export function sequenceAdd(sequence: number, step: number, modulus: number = UINT32_SEQUENCE_MODULUS): number {
  return (((sequence + step) % modulus) + modulus) % modulus;
}

/**
 * Whether `a` is newer than `b`: `a` is strictly less than half the ring ahead of `b`.
 * Equal sequences and sequences exactly half a ring apart are newer in neither direction.
 */
export function isSequenceNewer(a: number, b: number, modulus: number = UINT32_SEQUENCE_MODULUS): boolean {
  const d = sequenceDistance(b, a, modulus);
  return d !== 0 && d < modulus / 2;
}
