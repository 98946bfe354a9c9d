import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares a typed password with the room's in constant time (hashing first so lengths do not leak). */
export function passwordMatches(expected: string | undefined, given: string | undefined): boolean {
  if (!expected) return true;
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256')
    .update(given ?? '', 'utf8')
    .digest();
  return timingSafeEqual(a, b);
}
