import { createHash, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, type KeyObject } from 'node:crypto';

/**
 * An X25519 key pair; `publicKey` is the raw 32-byte key in base64url (JSON-safe). The internet join's
 * unauthenticated exchange until it moves to the CPace agreement in keyAgreement.ts.
 */
export interface KeyPair {
  readonly publicKey: string;
  readonly privateKey: KeyObject;
}

/** What both ends bind their keys to: both public keys, both ICE username fragments, the room. */
export interface SecureTranscript {
  readonly roomId: string;
  readonly hostPublicKey: string;
  readonly guestPublicKey: string;
  readonly hostUfrag: string;
  readonly guestUfrag: string;
}

/** The two directional ChaCha20-Poly1305 keys of one internet path. */
export interface DirectionalKeys {
  readonly send: Buffer;
  readonly receive: Buffer;
}

/** Which end of the path we are: the host's keys mirror the guest's. */
export type SecureRole = 'host' | 'guest';

const KEY_INFO = 'lan-party secure datagrams v1';
const RAW_KEY = /^[A-Za-z0-9_-]{43}$/;

/** A fresh X25519 key pair (node:crypto). */
export function createKeyPair(): KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  const jwk = publicKey.export({ format: 'jwk' });
  return { publicKey: jwk.x!, privateKey };
}

/** Parses a peer's base64url public key; throws a clear error for anything that is not one. */
export function importPublicKey(publicKey: string): KeyObject {
  if (!RAW_KEY.test(publicKey)) throw new RangeError('not an X25519 public key (43 base64url characters expected)');
  return createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: publicKey }, format: 'jwk' });
}

/**
 * X25519 then HKDF-SHA256 (salt: a hash of the transcript) into one key per direction. Throws when our
 * public key or the peer's does not sit in the transcript's slot for its role, or the agreement is degenerate.
 */
export function deriveKeys(
  ownPrivate: KeyObject,
  peerPublic: string,
  transcript: SecureTranscript,
  role: SecureRole,
): DirectionalKeys {
  const ownPublic = createPublicKey(ownPrivate).export({ format: 'jwk' }).x;
  const [ownSlot, peerSlot] =
    role === 'host'
      ? [transcript.hostPublicKey, transcript.guestPublicKey]
      : [transcript.guestPublicKey, transcript.hostPublicKey];
  if (ownSlot !== ownPublic) throw new Error(`the transcript's ${role} key is not our own public key`);
  if (peerSlot !== peerPublic) throw new Error("the transcript's peer key is not the peer's public key");
  const shared = diffieHellman({ privateKey: ownPrivate, publicKey: importPublicKey(peerPublic) });
  if (shared.every((byte) => byte === 0)) throw new Error('degenerate X25519 agreement (low-order peer key)');
  const salt = transcriptHash(transcript);
  const okm = Buffer.from(hkdfSync('sha256', shared, salt, KEY_INFO, 64));
  const hostToGuest = okm.subarray(0, 32);
  const guestToHost = okm.subarray(32, 64);
  return role === 'host' ? { send: hostToGuest, receive: guestToHost } : { send: guestToHost, receive: hostToGuest };
}

/** SHA-256 over the transcript's fields, each length-prefixed so no two transcripts encode alike. */
export function transcriptHash(transcript: SecureTranscript): Buffer {
  const hash = createHash('sha256');
  for (const field of [
    transcript.roomId,
    transcript.hostPublicKey,
    transcript.guestPublicKey,
    transcript.hostUfrag,
    transcript.guestUfrag,
  ]) {
    const bytes = Buffer.from(field, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length).update(bytes);
  }
  return hash.digest();
}
