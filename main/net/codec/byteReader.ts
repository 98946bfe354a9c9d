import { CodecFailure } from './codecFailure';
import { slabCopy } from './slabCopy';

// fatal: bad UTF-8 is an error, not U+FFFD; ignoreBOM: a leading U+FEFF is content, so decoding is exact.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Strings up to this many bytes are decoded by hand when ASCII: cheaper than a TextDecoder call. */
const SHORT_STRING = 32;

/** A bounds-checked cursor over a body: every read checks what is left first and fails with {@link CodecFailure}. */
export class ByteReader {
  readonly bytes: Uint8Array;
  private dataView: DataView | undefined = undefined;
  pos: number;
  readonly end: number;

  constructor(bytes: Uint8Array, start = 0) {
    this.bytes = bytes;
    this.pos = start;
    this.end = bytes.length;
  }

  /** Made on the first multi-byte read: many bodies (bytes, small ints, short strings) never need one. */
  private get view(): DataView {
    return (this.dataView ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength));
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
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  i32(): number {
    this.need(4);
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }

  f32(): number {
    this.need(4);
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
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
}
