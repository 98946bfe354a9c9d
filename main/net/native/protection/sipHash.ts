import { DATA_OFFSET, MAX_WASM_MESSAGE, instantiateSipHash, type SipHashInstance } from './sipHashModule';

/** The WebAssembly SipHash every key shares (one memory: a hash runs to completion before the next starts). */
let shared: SipHashInstance | null = null;

/**
 * SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed 64-bit PRF that is a sound MAC for short inputs, and far
 * cheaper per datagram than node:crypto's HMAC or AEAD objects, which allocate a native object per call (see the
 * native README's Datagram section). It runs in WebAssembly (sipHashModule.ts), whose i64 arithmetic does a round
 * in a few instructions: 10–18× the (high, low) u32 script version it replaced, which is gone.
 */
export class SipHashKey {
  private readonly k0h: number;
  private readonly k0l: number;
  private readonly k1h: number;
  private readonly k1l: number;
  /** The last result's high and low 32 bits (read right after {@link hash}). */
  high = 0;
  low = 0;

  private readonly wasm: SipHashInstance;

  /** `key`: 16 bytes, read little-endian as k0 ‖ k1 (as the reference implementation does). */
  constructor(key: Uint8Array) {
    if (key.length !== 16) throw new RangeError(`a SipHash key is 16 bytes, got ${key.length}`);
    this.k0l = le32(key, 0);
    this.k0h = le32(key, 4);
    this.k1l = le32(key, 8);
    this.k1h = le32(key, 12);
    this.wasm = shared ??= instantiateSipHash();
  }

  /**
   * SipHash-2-4 of the message `prefix ‖ data[start, end)`, where `prefix` is the 8 bytes of the 64-bit value
   * (prefixHigh, prefixLow) little-endian (a packet number bound into the tag without copying the datagram).
   * Leaves the result in {@link high} and {@link low}. Pass prefix 0, 0 and read only `data` for test vectors
   * with {@link hashBytes}. Throws RangeError past {@link MAX_WASM_MESSAGE} bytes (more than any UDP datagram).
   */
  hash(prefixHigh: number, prefixLow: number, data: Uint8Array, start: number, end: number): void {
    this.run(true, prefixHigh, prefixLow, data, start, end);
  }

  /** SipHash-2-4 of `data[start, end)` alone (no prefix), for the published test vectors. */
  hashBytes(data: Uint8Array, start = 0, end = data.length): void {
    this.run(false, 0, 0, data, start, end);
  }

  private run(prefixed: boolean, ph: number, pl: number, data: Uint8Array, start: number, end: number): void {
    const wasm = this.wasm;
    const memory = wasm.memory;
    const length = end - start;
    if (length > MAX_WASM_MESSAGE) throw new RangeError(`SipHash input of ${length} bytes is over ${MAX_WASM_MESSAGE}`);
    // From the start, the whole array when it fits (a sealer's buffer is its MTU): no view allocated per datagram.
    if (start === 0 && data.length <= MAX_WASM_MESSAGE) memory.set(data, DATA_OFFSET);
    else memory.set(data.subarray(start, end), DATA_OFFSET);
    const lengthByte = (length + (prefixed ? 8 : 0)) & 0xff;
    wasm.sip(this.k0l, this.k0h, this.k1l, this.k1h, pl, ph, prefixed ? 1 : 0, length, lengthByte);
    this.low = le32(memory, 0);
    this.high = le32(memory, 4);
  }
}

function le32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}
