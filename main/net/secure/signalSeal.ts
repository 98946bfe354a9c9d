import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { RandomBytes } from '../pake/cpace';

/**
 * Signalling (ICE parameters, candidates) sealed end to end through the rendezvous after the key agreement:
 * ChaCha20-Poly1305 under one of the agreement's signal keys, a fresh random 96-bit nonce per message (a join
 * sends a few dozen at most), base64url `nonce ‖ ciphertext ‖ tag`. The rendezvous learns neither addresses
 * nor ICE passwords, and can neither forge nor alter them.
 */

const NONCE = 12;
const TAG = 16;
const AAD = Buffer.from('lan-party signal v1');

/** Seals `text` under `key` (32 bytes). */
export function sealSignal(key: Uint8Array, text: string, random: RandomBytes): string {
  const nonce = Buffer.from(random(NONCE));
  const cipher = createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG });
  cipher.setAAD(AAD, { plaintextLength: Buffer.byteLength(text) });
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
}

/** The text `sealed` holds, or undefined when it is not a message sealed under `key` (forged, damaged, other key). */
export function openSignal(key: Uint8Array, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < NONCE + TAG) return undefined;
  try {
    const decipher = createDecipheriv('chacha20-poly1305', key, bytes.subarray(0, NONCE), { authTagLength: TAG });
    decipher.setAAD(AAD, { plaintextLength: bytes.length - NONCE - TAG });
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG));
    const text = Buffer.concat([decipher.update(bytes.subarray(NONCE, bytes.length - TAG)), decipher.final()]);
    return new TextDecoder('utf-8', { fatal: true }).decode(text);
  } catch {
    return undefined;
  }
}
