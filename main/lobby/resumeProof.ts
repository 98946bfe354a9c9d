import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';

/**
 * Coming back to a seat without a bearer token. The welcome names the seat with a one-time token (public); both
 * ends derive the seat's resume key from it and the secret of the session that was welcomed (the native path's
 * channel binding, an X25519 result never sent, and a password room's CPace ISK): someone who only watched the
 * wire cannot derive it. A rejoin proves the key with an HMAC over the new connection's id (its channel binding
 * on the native path, else its token), so a proof seen on one connection admits no other. On gale.net v1 without
 * a password no secret exists (nothing on that path is secret): the key then rests on the token alone, and only
 * the binding to the new connection remains. Pure: the room's and the guest's steps both use it.
 */

const KEY_LABEL = utf8ToBytes('LAN Party resume key v1');
const PROOF_LABEL = utf8ToBytes('LAN Party resume proof v1');

/** The secret of a welcomed session, hex: the native channel binding and the CPace ISK, each when there is one. */
export function sessionSecret(binding: Uint8Array | undefined, isk: Uint8Array | undefined): string {
  return bytesToHex(concatBytes(binding ?? new Uint8Array(0), isk ?? new Uint8Array(0)));
}

/** A connection's id for a proof, hex: its channel binding on the native path, else its 64-bit token. */
export function connectionId(binding: Uint8Array | undefined, token: bigint): string {
  if (binding) return bytesToHex(binding);
  return token.toString(16).padStart(16, '0');
}

/** The seat's resume key (hex) for the token its welcome carried and the session's secret. */
export function resumeKey(secret: string, token: string): string {
  return bytesToHex(hmac(sha256, hexToBytes(secret), concatBytes(KEY_LABEL, utf8ToBytes(token))));
}

/** The proof a rejoin sends on the connection `connection` (hex, from {@link connectionId}). */
export function resumeProof(key: string, connection: string): string {
  return bytesToHex(hmac(sha256, hexToBytes(key), concatBytes(PROOF_LABEL, hexToBytes(connection))));
}

/** Whether two strings of the same length are equal, in time that does not depend on where they differ. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
