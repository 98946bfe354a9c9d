import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh per-run secret for the WebSocket binding: 32 random bytes, base64url. */
export function createBindingSecret(random: (size: number) => Buffer = randomBytes): string {
  return random(32).toString('base64url');
}

/** Constant-time comparison (hashing first so the length of the secret does not leak either). */
export function secretsMatch(expected: string, offered: string): boolean {
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(offered).digest();
  return timingSafeEqual(a, b) && expected.length > 0;
}
