/** Unsigned 32-bit sequence arithmetic with wraparound (gale.net v1 sequences). */

const HALF = 2 ** 31;

/** `a + n` modulo 2^32. */
export function sequenceAdd(a: number, n: number): number {
  return (a + n) >>> 0;
}

/** How far `a` is ahead of `b`, as a signed distance in (-2^31, 2^31]. */
export function sequenceDiff(a: number, b: number): number {
  const d = (a - b) >>> 0;
  return d > HALF ? d - 2 ** 32 : d;
}

/** Whether `a` is newer than `b`, allowing for wraparound (ties and exactly-half distances are not newer). */
export function isSequenceNewer(a: number, b: number): boolean {
  const d = (a - b) >>> 0;
  return d !== 0 && d < HALF;
}
