import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt cost of a room key: N = 2^14, r = 8 (16 MiB, tens of ms once per join on a laptop) — modest for a game
 * night, and every offline guess at a sniffed proof costs the same.
 */
export const ROOM_KEY_COST = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

/** Bytes of a room key, a salt, a nonce and a proof. */
export const PROOF_BYTES = { key: 32, salt: 16, nonce: 32 } as const;

// Binds a proof to this purpose, so a MAC of the same key over the same bytes elsewhere cannot stand in for it.
const PROOF_CONTEXT = Buffer.from('LAN Party lobby v2: join proof', 'utf8');

/** The key a password gives for a room's salt: scrypt(NFC(password), salt). Async (runs off the main thread). */
export function deriveRoomKey(password: string, salt: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, PROOF_BYTES.key, ROOM_KEY_COST, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** The proof a guest sends for a nonce: HMAC-SHA256(key, nonce ‖ context). */
export function joinProof(key: Uint8Array, nonce: Uint8Array): Buffer {
  return createHmac('sha256', key).update(nonce).update(PROOF_CONTEXT).digest();
}

/** Whether `proof` answers `nonce` for `key`, compared in constant time. */
export function proofMatches(key: Uint8Array, nonce: Uint8Array, proof: Uint8Array): boolean {
  const expected = joinProof(key, nonce);
  return proof.length === expected.length && timingSafeEqual(expected, proof);
}

/** Fresh random bytes (a salt or a nonce) from the OS's CSPRNG. */
export function freshBytes(length: number): Buffer {
  return randomBytes(length);
}

/** Bytes as unpadded base64url, the lobby's wire form. */
export function toBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

/** The bytes of unpadded base64url (the schemas check the alphabet and length first). */
export function fromBase64Url(text: string): Buffer {
  return Buffer.from(text, 'base64url');
}
