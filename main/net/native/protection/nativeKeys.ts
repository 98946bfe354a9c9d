import { Buffer } from 'node:buffer';
import { createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, type KeyObject } from 'node:crypto';
import type { DirectionKeys } from './packetProtection';

/** Bytes of an X25519 public key on the wire (base64url in the offer's and the accept's `key`). */
export const PUBLIC_KEY_SIZE = 32;
const INFO = 'lan-party native v2 packet keys';
const BINDING_INFO = 'lan-party native v2 channel binding';

/** One side's ephemeral X25519 key pair for one connection. */
export interface NativeKeyPair {
  readonly privateKey: KeyObject;
  /** The raw 32-byte public key, as sent. */
  readonly publicKey: Uint8Array;
}

/** A fresh key pair (one per connect attempt, one per accepted peer): forward secrecy costs nothing here. */
export function generateNativeKeyPair(): NativeKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('x25519');
  const jwk = publicKey.export({ format: 'jwk' });
  return { privateKey, publicKey: new Uint8Array(Buffer.from(jwk.x!, 'base64url')) };
}

/** A public key as the offer and the accept carry it. */
export function encodePublicKey(key: Uint8Array): string {
  return Buffer.from(key).toString('base64url');
}

/** A public key from the offer or the accept; undefined unless exactly 32 bytes of base64url. */
export function decodePublicKey(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'string' || value.length !== 43 || !/^[A-Za-z0-9_-]+$/.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64url');
  return bytes.length === PUBLIC_KEY_SIZE ? new Uint8Array(bytes) : undefined;
}

/**
 * The two direction keys of a connection from our key pair and the other side's public key: X25519, then HKDF-SHA256
 * salted with both public keys (client's first) into client→server and server→client keys, and a channel binding both
 * ends share (a man in the middle holds a different one with each side). Undefined when the other
 * key is unusable (a low-order point gives an all-zero secret, which anyone could compute).
 */
export function deriveNativeKeys(
  ours: NativeKeyPair,
  theirs: Uint8Array,
  role: 'client' | 'server',
): DirectionKeys | undefined {
  let secret: Buffer;
  try {
    const publicKey = createPublicKey({
      key: { kty: 'OKP', crv: 'X25519', x: Buffer.from(theirs).toString('base64url') },
      format: 'jwk',
    });
    secret = diffieHellman({ privateKey: ours.privateKey, publicKey });
  } catch {
    return undefined;
  }
  if (secret.every((b) => b === 0)) return undefined;
  const [client, server] = role === 'client' ? [ours.publicKey, theirs] : [theirs, ours.publicKey];
  const salt = Buffer.concat([client, server]);
  const okm = new Uint8Array(hkdfSync('sha256', secret, salt, INFO, 32));
  const toServer = okm.slice(0, 16);
  const toClient = okm.slice(16, 32);
  // Apart from the keys (its own HKDF info), so naming the connection to a layer above reveals nothing of them.
  const binding = new Uint8Array(hkdfSync('sha256', secret, salt, BINDING_INFO, 32));
  return role === 'client'
    ? { send: toServer, receive: toClient, binding }
    : { send: toClient, receive: toServer, binding };
}
