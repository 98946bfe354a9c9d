import { DATA_OFFSET, MAX_WASM_MESSAGE, instantiateSipHash, type SipHashInstance } from './sipHashModule';

/** The WebAssembly SipHash every key shares (one memory: a hash runs to completion before the next starts). */
let shared: SipHashInstance | undefined | null = null;
const wasmSipHash = (): SipHashInstance | undefined => (shared === null ? (shared = instantiateSipHash()) : shared);

/**
 * SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed 64-bit PRF that is a sound MAC for short inputs, and in
 * plain JavaScript far cheaper per datagram than node:crypto's HMAC or AEAD objects, which allocate a native
 * object per call (see the native README's Datagram section for the figures). 64-bit values are kept as
 * (high, low) u32 pairs so nothing allocates: no BigInt, no arrays.
 */
export class SipHashKey {
  private readonly k0h: number;
  private readonly k0l: number;
  private readonly k1h: number;
  private readonly k1l: number;
  /** The last result's high and low 32 bits (read right after {@link hash}). */
  high = 0;
  low = 0;

  private readonly wasm: SipHashInstance | undefined;

  /**
   * `key`: 16 bytes, read little-endian as k0 ‖ k1 (as the reference implementation does). `engine`: 'wasm' (the
   * default; falls back to script where WebAssembly is missing) or 'script' (tests compare the two).
   */
  constructor(key: Uint8Array, engine: 'wasm' | 'script' = 'wasm') {
    if (key.length !== 16) throw new RangeError(`a SipHash key is 16 bytes, got ${key.length}`);
    this.k0l = le32(key, 0);
    this.k0h = le32(key, 4);
    this.k1l = le32(key, 8);
    this.k1h = le32(key, 12);
    this.wasm = engine === 'wasm' ? wasmSipHash() : undefined;
  }

  /**
   * SipHash-2-4 of the message `prefix ‖ data[start, end)`, where `prefix` is the 8 bytes of the 64-bit value
   * (prefixHigh, prefixLow) little-endian (a packet number bound into the tag without copying the datagram).
   * Leaves the result in {@link high} and {@link low}. Pass prefix 0, 0 and read only `data` for test vectors
   * with {@link hashBytes}.
   */
  hash(prefixHigh: number, prefixLow: number, data: Uint8Array, start: number, end: number): void {
    if (this.wasm !== undefined && end - start <= MAX_WASM_MESSAGE)
      this.runWasm(true, prefixHigh, prefixLow, data, start, end);
    else this.run(true, prefixHigh, prefixLow, data, start, end);
  }

  /** SipHash-2-4 of `data[start, end)` alone (no prefix), for the published test vectors. */
  hashBytes(data: Uint8Array, start = 0, end = data.length): void {
    if (this.wasm !== undefined && end - start <= MAX_WASM_MESSAGE) this.runWasm(false, 0, 0, data, start, end);
    else this.run(false, 0, 0, data, start, end);
  }

  private runWasm(prefixed: boolean, ph: number, pl: number, data: Uint8Array, start: number, end: number): void {
    const wasm = this.wasm!;
    const memory = wasm.memory;
    const length = end - start;
    // From the start, the whole array when it fits (a sealer's buffer is its MTU): no view allocated per datagram.
    if (start === 0 && data.length <= MAX_WASM_MESSAGE) memory.set(data, DATA_OFFSET);
    else memory.set(data.subarray(start, end), DATA_OFFSET);
    const lengthByte = (length + (prefixed ? 8 : 0)) & 0xff;
    wasm.sip(this.k0l, this.k0h, this.k1l, this.k1h, pl, ph, prefixed ? 1 : 0, length, lengthByte);
    this.low = le32(memory, 0);
    this.high = le32(memory, 4);
  }

  private run(prefixed: boolean, ph: number, pl: number, data: Uint8Array, start: number, end: number): void {
    let v0h = (this.k0h ^ 0x736f6d65) >>> 0;
    let v0l = (this.k0l ^ 0x70736575) >>> 0;
    let v1h = (this.k1h ^ 0x646f7261) >>> 0;
    let v1l = (this.k1l ^ 0x6e646f6d) >>> 0;
    let v2h = (this.k0h ^ 0x6c796765) >>> 0;
    let v2l = (this.k0l ^ 0x6e657261) >>> 0;
    let v3h = (this.k1h ^ 0x74656462) >>> 0;
    let v3l = (this.k1l ^ 0x79746573) >>> 0;
    const length = end - start + (prefixed ? 8 : 0);
    const whole = end - ((end - start) & 7);
    // Blocks: the prefix first (when given), then whole 8-byte words of data, then the last partial word
    // with the length in its top byte. `mh`/`ml` is the block being absorbed.
    let at = start;
    let usePrefix = prefixed;
    for (let last = false; !last;) {
      let mh: number;
      let ml: number;
      if (usePrefix) {
        mh = ph >>> 0;
        ml = pl >>> 0;
        usePrefix = false;
      } else if (at < whole) {
        ml = (data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24)) >>> 0;
        mh = (data[at + 4]! | (data[at + 5]! << 8) | (data[at + 6]! << 16) | (data[at + 7]! << 24)) >>> 0;
        at += 8;
      } else {
        ml = 0;
        mh = (length & 0xff) << 24;
        const left = end - at;
        if (left > 0) ml |= data[at]!;
        if (left > 1) ml |= data[at + 1]! << 8;
        if (left > 2) ml |= data[at + 2]! << 16;
        if (left > 3) ml |= data[at + 3]! << 24;
        if (left > 4) mh |= data[at + 4]!;
        if (left > 5) mh |= data[at + 5]! << 8;
        if (left > 6) mh |= data[at + 6]! << 16;
        ml >>>= 0;
        mh >>>= 0;
        last = true;
      }
      v3h = (v3h ^ mh) >>> 0;
      v3l = (v3l ^ ml) >>> 0;
      for (let r = 0; r < 2; r++) {
        // One SipRound, written out on the (high, low) halves.
        let lo = (v0l + v1l) >>> 0;
        v0h = (v0h + v1h + (lo < v0l ? 1 : 0)) >>> 0;
        v0l = lo;
        let th = ((v1h << 13) | (v1l >>> 19)) >>> 0;
        let tl = ((v1l << 13) | (v1h >>> 19)) >>> 0;
        v1h = (th ^ v0h) >>> 0;
        v1l = (tl ^ v0l) >>> 0;
        th = v0h;
        v0h = v0l;
        v0l = th;
        lo = (v2l + v3l) >>> 0;
        v2h = (v2h + v3h + (lo < v2l ? 1 : 0)) >>> 0;
        v2l = lo;
        th = ((v3h << 16) | (v3l >>> 16)) >>> 0;
        tl = ((v3l << 16) | (v3h >>> 16)) >>> 0;
        v3h = (th ^ v2h) >>> 0;
        v3l = (tl ^ v2l) >>> 0;
        lo = (v0l + v3l) >>> 0;
        v0h = (v0h + v3h + (lo < v0l ? 1 : 0)) >>> 0;
        v0l = lo;
        th = ((v3h << 21) | (v3l >>> 11)) >>> 0;
        tl = ((v3l << 21) | (v3h >>> 11)) >>> 0;
        v3h = (th ^ v0h) >>> 0;
        v3l = (tl ^ v0l) >>> 0;
        lo = (v2l + v1l) >>> 0;
        v2h = (v2h + v1h + (lo < v2l ? 1 : 0)) >>> 0;
        v2l = lo;
        th = ((v1h << 17) | (v1l >>> 15)) >>> 0;
        tl = ((v1l << 17) | (v1h >>> 15)) >>> 0;
        v1h = (th ^ v2h) >>> 0;
        v1l = (tl ^ v2l) >>> 0;
        th = v2h;
        v2h = v2l;
        v2l = th;
      }
      v0h = (v0h ^ mh) >>> 0;
      v0l = (v0l ^ ml) >>> 0;
    }
    v2l = (v2l ^ 0xff) >>> 0;
    for (let r = 0; r < 4; r++) {
      let lo = (v0l + v1l) >>> 0;
      v0h = (v0h + v1h + (lo < v0l ? 1 : 0)) >>> 0;
      v0l = lo;
      let th = ((v1h << 13) | (v1l >>> 19)) >>> 0;
      let tl = ((v1l << 13) | (v1h >>> 19)) >>> 0;
      v1h = (th ^ v0h) >>> 0;
      v1l = (tl ^ v0l) >>> 0;
      th = v0h;
      v0h = v0l;
      v0l = th;
      lo = (v2l + v3l) >>> 0;
      v2h = (v2h + v3h + (lo < v2l ? 1 : 0)) >>> 0;
      v2l = lo;
      th = ((v3h << 16) | (v3l >>> 16)) >>> 0;
      tl = ((v3l << 16) | (v3h >>> 16)) >>> 0;
      v3h = (th ^ v2h) >>> 0;
      v3l = (tl ^ v2l) >>> 0;
      lo = (v0l + v3l) >>> 0;
      v0h = (v0h + v3h + (lo < v0l ? 1 : 0)) >>> 0;
      v0l = lo;
      th = ((v3h << 21) | (v3l >>> 11)) >>> 0;
      tl = ((v3l << 21) | (v3h >>> 11)) >>> 0;
      v3h = (th ^ v0h) >>> 0;
      v3l = (tl ^ v0l) >>> 0;
      lo = (v2l + v1l) >>> 0;
      v2h = (v2h + v1h + (lo < v2l ? 1 : 0)) >>> 0;
      v2l = lo;
      th = ((v1h << 17) | (v1l >>> 15)) >>> 0;
      tl = ((v1l << 17) | (v1h >>> 15)) >>> 0;
      v1h = (th ^ v2h) >>> 0;
      v1l = (tl ^ v2l) >>> 0;
      th = v2h;
      v2h = v2l;
      v2l = th;
    }
    this.high = (v0h ^ v1h ^ v2h ^ v3h) >>> 0;
    this.low = (v0l ^ v1l ^ v2l ^ v3l) >>> 0;
  }
}

function le32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}
