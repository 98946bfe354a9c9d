import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { MIN_SERVICE_KEY_BYTES } from './roomSecrets';

/**
 * The rendezvous service key from `path` (hex, one line), created there with 32 random bytes (mode 0600) when
 * the file does not exist yet. Rooms keep their owners across restarts only while this key stays the same.
 * Throws a clear error for a file that holds something else.
 */
export function loadOrCreateServiceKey(path: string): Uint8Array {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const key = randomBytes(MIN_SERVICE_KEY_BYTES);
    writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return new Uint8Array(key);
  }
  const hex = text.trim();
  if (!/^(?:[0-9a-f]{2}){32,}$/i.test(hex)) {
    throw new Error(`${path} is not a rendezvous service key (at least 64 hex digits expected)`);
  }
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
