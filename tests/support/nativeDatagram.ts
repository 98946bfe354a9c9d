import { Native } from '../../main/net/native/nativeWire';

/**
 * A native datagram as a test or a raw peer builds it: magic, `token` (taken mod 2^64), then the frames
 * as given. A plain Uint8Array, so parsed bodies (views into it) compare equal to plain expected bodies.
 */
export function nativeDatagram(token: bigint, ...frames: ReadonlyArray<Uint8Array | readonly number[]>): Uint8Array {
  const parts = frames.map((f) => (f instanceof Uint8Array ? f : Uint8Array.from(f)));
  const out = new Uint8Array(Native.HEADER_SIZE + parts.reduce((n, f) => n + f.byteLength, 0));
  out[0] = Native.MAGIC;
  new DataView(out.buffer).setBigUint64(1, BigInt.asUintN(64, token));
  let at = Native.HEADER_SIZE;
  for (const f of parts) {
    out.set(f, at);
    at += f.byteLength;
  }
  return out;
}
