/**
 * Modular sequence-number arithmetic: sequences wrap at a modulus, so "newer" means "less than half the ring ahead".
 * The unsigned 32-bit functions (gale.net v1 and native wire sequences) sit on the transport's per-message path: they
 * take two numbers, never a modulus, so each stays small and monomorphic. The `…OnRing` variants take any modulus.
 */

/** The default sequence ring: unsigned 32-bit, like gale.net v1 wire sequences. */
export const UINT32_SEQUENCE_MODULUS = 2 ** 32;

const HALF_UINT32 = 2 ** 31;

/** `a + n` modulo 2^32. */
export function sequenceAdd(a: number, n: number): number {
  return (a + n) >>> 0;
}

/** How far `a` is ahead of `b` on the 2^32 ring, as a signed distance in (-2^31, 2^31]. */
export function sequenceDiff(a: number, b: number): number {
  const d = (a - b) >>> 0;
  return d > HALF_UINT32 ? d - UINT32_SEQUENCE_MODULUS : d;
}

/** How far `to` is ahead of `from` going forward round the 2^32 ring, in [0, 2^32). */
export function sequenceDistance(from: number, to: number): number {
  return (to - from) >>> 0;
}

/** Whether `a` is newer than `b` on the 2^32 ring (ties and exactly-half distances are newer in neither direction). */
export function isSequenceNewer(a: number, b: number): boolean {
  const d = (a - b) >>> 0;
  return d !== 0 && d < HALF_UINT32;
}

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

/** How far `to` is ahead of `from` going forward round a ring of `modulus`, in [0, modulus). */
export function sequenceDistanceOnRing(from: number, to: number, modulus: number): number {
  return (((to - from) % modulus) + modulus) % modulus;
}

/** `sequence + step` wrapped onto a ring of `modulus`. */
export function sequenceAddOnRing(sequence: number, step: number, modulus: number): number {
  return (((sequence + step) % modulus) + modulus) % modulus;
}

/**
 * Whether `a` is newer than `b` on a ring of `modulus`: `a` is strictly less than half the ring ahead of `b`.
 * Equal sequences and sequences exactly half a ring apart are newer in neither direction.
 */
export function isSequenceNewerOnRing(a: number, b: number, modulus: number): boolean {
  const d = sequenceDistanceOnRing(b, a, modulus);
  return d !== 0 && d < modulus / 2;
}
