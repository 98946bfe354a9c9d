import { randomBytes } from 'node:crypto';

/** A fresh random instance id (64 bits, hex) for deduplicating one server seen on several interfaces. */
export function randomInstanceId(): string {
  return randomBytes(8).toString('hex');
}
