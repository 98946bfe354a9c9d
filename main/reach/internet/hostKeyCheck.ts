import { createHash } from 'node:crypto';
import { encodeInternetCode, keyCheckOf } from '../../../shared/rendezvous';

/** SHA-256 of a base64url X25519 public key's 32 bytes: what an internet code's key check is cut from. */
export function publicKeyDigest(publicKey: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest());
}

/** The internet code for a registered room and the host's public key (base64url). */
export function internetCodeFor(roomId: string, publicKey: string): string {
  return encodeInternetCode(roomId, publicKeyDigest(publicKey));
}

/** Whether a public key (base64url) is the one an internet code's key check names. */
export function hostKeyMatches(publicKey: string, keyCheck: string): boolean {
  return keyCheckOf(publicKeyDigest(publicKey)) === keyCheck;
}
