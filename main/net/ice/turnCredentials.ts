import { createHmac } from 'node:crypto';

/** A TURN username and password valid until `expiresAt` (unix seconds). */
export interface TurnCredentials {
  readonly username: string;
  readonly password: string;
  readonly expiresAt: number;
}

/**
 * Mints time-limited TURN credentials by the TURN REST API convention that coturn's `--use-auth-secret`
 * checks: username `<expiry>:<id>`, password base64(HMAC-SHA1(secret, username)). No state is kept: coturn
 * recomputes the password from the shared secret and refuses the username once its expiry has passed.
 */
export function mintTurnCredentials(
  secret: string,
  id: string,
  ttlSeconds: number,
  nowSeconds: number,
): TurnCredentials {
  if (secret.length === 0) throw new RangeError('TURN shared secret is empty');
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(id)) throw new RangeError('TURN credential id must be 1–64 of A–Z a–z 0–9 _ . -');
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0)
    throw new RangeError('TURN credential lifetime must be positive');
  const expiresAt = Math.floor(nowSeconds + ttlSeconds);
  const username = `${expiresAt}:${id}`;
  const password = createHmac('sha1', secret).update(username).digest('base64');
  return { username, password, expiresAt };
}
