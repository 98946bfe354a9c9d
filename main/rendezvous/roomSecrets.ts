import { createHmac, timingSafeEqual } from 'node:crypto';
import { ROOM_ID_CHARS } from '../../shared/rendezvous';
import { CROCKFORD_BASE32 } from '../../shared/roomCode/roomCodeFormat';

/** Bytes of service key: HMAC-SHA256 keys shorter than this are refused. */
export const MIN_SERVICE_KEY_BYTES = 32;

/**
 * Room ids the service issues and the secret that proves ownership of one: HMAC-SHA256(serviceKey, roomId),
 * 24 bytes as 32 base64url characters. The service stores no secrets, so a restart with the same key still
 * knows every owner, and nobody can re-register an id without its secret, whether the room is held, in its
 * grace period, or forgotten.
 */
export interface RoomSecrets {
  /** A fresh random id (not yet checked against rooms in use). */
  newId(): string;
  /** The owner's secret of `roomId`. */
  secretFor(roomId: string): string;
  /** Constant-time: does `secret` prove ownership of `roomId`? */
  owns(roomId: string, secret: string): boolean;
}

/** Room secrets under `serviceKey` (≥ 32 bytes: persist it to keep rooms across restarts). */
export function createRoomSecrets(serviceKey: Uint8Array, random: (size: number) => Uint8Array): RoomSecrets {
  if (serviceKey.length < MIN_SERVICE_KEY_BYTES) {
    throw new RangeError(`the rendezvous service key must be at least ${MIN_SERVICE_KEY_BYTES} bytes`);
  }
  const key = Buffer.from(serviceKey);
  const mac = (roomId: string) => createHmac('sha256', key).update(`lan-party room ${roomId}`).digest().subarray(0, 24);
  return {
    newId: () => Array.from(random(ROOM_ID_CHARS), (b) => CROCKFORD_BASE32[b & 31]).join(''),
    secretFor: (roomId) => mac(roomId).toString('base64url'),
    owns(roomId, secret) {
      const offered = Buffer.from(secret, 'base64url');
      const expected = mac(roomId);
      return offered.length === expected.length && timingSafeEqual(offered, expected);
    },
  };
}
