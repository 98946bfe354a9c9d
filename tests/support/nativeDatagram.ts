import { Native } from '../../main/net/native/wire/nativeWire';
import { PacketSealer } from '../../main/net/native/protection/packetProtection';
import type { DirectionKeys } from '../../main/net/native/protection/packetProtection';

/** Two 16-byte keys for tests: A sends with the first (B receives with it), B with the second. */
const KEY_1 = Uint8Array.from({ length: 16 }, (_, i) => 0x10 + i);
const KEY_2 = Uint8Array.from({ length: 16 }, (_, i) => 0xa0 + i);
export const TEST_KEYS_A: DirectionKeys = { send: KEY_1, receive: KEY_2 };
export const TEST_KEYS_B: DirectionKeys = { send: KEY_2, receive: KEY_1 };

/**
 * A native datagram as a test or a raw peer builds it: magic, `token` (taken mod 2^64), packet number 0, the
 * frames as given, and an all-zero tag (seal it with {@link sealDatagram} for a receiver to accept it). A plain
 * Uint8Array, so parsed bodies (views into it) compare equal to plain expected bodies.
 */
export function nativeDatagram(token: bigint, ...frames: ReadonlyArray<Uint8Array | readonly number[]>): Uint8Array {
  const parts = frames.map((f) => (f instanceof Uint8Array ? f : Uint8Array.from(f)));
  const size = parts.reduce((n, f) => n + f.byteLength, 0);
  const out = new Uint8Array(Native.HEADER_SIZE + size + Native.TAG_SIZE);
  out[0] = Native.MAGIC;
  new DataView(out.buffer).setBigUint64(1, BigInt.asUintN(64, token));
  let at = Native.HEADER_SIZE;
  for (const f of parts) {
    out.set(f, at);
    at += f.byteLength;
  }
  return out;
}

/** Numbers and tags a datagram from {@link nativeDatagram} in place with `sealer` (the next packet number); returns it. */
export function sealDatagram(datagram: Uint8Array, sealer: PacketSealer): Uint8Array {
  sealer.seal(datagram, datagram.length - Native.TAG_SIZE);
  return datagram;
}

/** A sealer under `key` whose numbering starts at `first`. */
export function testSealer(key: Uint8Array = KEY_1, first = 0): PacketSealer {
  const sealer = new PacketSealer(key);
  sealer.next = first;
  return sealer;
}
