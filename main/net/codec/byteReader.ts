import { CodecFailure } from './codecFailure';
import { slabCopy } from './slabCopy';

// fatal: bad UTF-8 is an error, not U+FFFD; ignoreBOM: a leading U+FEFF is content, so decoding is exact.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Strings up to this many bytes are decoded by hand when ASCII: cheaper than a TextDecoder call. */
const SHORT_STRING = 32;

/**
 * Floats are copied here and read little-endian: one view for every reader, where a DataView per body would be
 * an allocation per message (integers need none: they are assembled from their bytes).
 */
const scratch = new Uint8Array(8);
const scratchView = new DataView(scratch.buffer);

/** A bounds-checked cursor over a body: every read checks what is left first and fails with {@link CodecFailure}. */
export class ByteReader {
  readonly bytes: Uint8Array;
  pos: number;
  readonly end: number;

  constructor(bytes: Uint8Array, start = 0) {
    this.bytes = bytes;
    this.pos = start;
    this.end = bytes.length;
  }

  /** Bytes not yet read. */
  remaining(): number {
    return this.end - this.pos;
  }

  /** Fails unless `n` more bytes are there. */
  need(n: number): void {
    if (n > this.end - this.pos) {
      throw new CodecFailure(`truncated: needs ${n} byte(s) at offset ${this.pos}, ${this.end - this.pos} left`);
    }
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++] as number;
  }

  u16(): number {
    this.need(2);
    const b = this.bytes;
    const p = this.pos;
    this.pos = p + 2;
    return (b[p] as number) | ((b[p + 1] as number) << 8);
  }

  u32(): number {
    return this.i32() >>> 0;
  }

  i32(): number {
    this.need(4);
    const b = this.bytes;
    const p = this.pos;
    this.pos = p + 4;
    return (b[p] as number) | ((b[p + 1] as number) << 8) | ((b[p + 2] as number) << 16) | ((b[p + 3] as number) << 24);
  }

  f32(): number {
    this.need(4);
    this.toScratch(4);
    return scratchView.getFloat32(0, true);
  }

  f64(): number {
    this.need(8);
    this.toScratch(8);
    return scratchView.getFloat64(0, true);
  }

  /** Unsigned LEB128 in canonical form: at most 5 bytes, at most 2^32-1, no redundant trailing zero byte. */
  varint(): number {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const b = this.u8();
      value += (b & 0x7f) * 2 ** (7 * i);
      if (b < 0x80) {
        if (b === 0 && i > 0) throw new CodecFailure('varint has a redundant zero byte');
        if (value > 0xffffffff) throw new CodecFailure('varint exceeds 2^32-1');
        return value;
      }
    }
    throw new CodecFailure('varint longer than 5 bytes');
  }

  /** `length` bytes of UTF-8 as a string; fails on invalid UTF-8. */
  utf8(length: number): string {
    this.need(length);
    const bytes = this.bytes;
    const start = this.pos;
    const stop = start + length;
    if (length <= SHORT_STRING) {
      let s = '';
      let i = start;
      for (; i < stop; i++) {
        const c = bytes[i] as number;
        if (c >= 0x80) break;
        s += String.fromCharCode(c);
      }
      if (i === stop) {
        this.pos = stop;
        return s;
      }
    }
    let s: string;
    try {
      s = utf8Decoder.decode(bytes.subarray(start, stop));
    } catch {
      throw new CodecFailure('string is not valid UTF-8');
    }
    this.pos = stop;
    return s;
  }

  /** A copy of the next `length` bytes, never a view of the body (small ones share a slab: see {@link slabCopy}). */
  raw(length: number): Uint8Array {
    this.need(length);
    const out = slabCopy(this.bytes, length, this.pos);
    this.pos += length;
    return out;
  }

  /** Copies the next `n` (≤ 8) bytes into the scratch buffer and moves past them. */
  private toScratch(n: number): void {
    const b = this.bytes;
    const p = this.pos;
    for (let i = 0; i < n; i++) scratch[i] = b[p + i] as number;
    this.pos = p + n;
  }
}
