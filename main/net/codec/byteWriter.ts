import { CodecFailure } from './codecFailure';

const textEncoder = new TextEncoder();
/** Strings at least this long are encoded by TextEncoder.encodeInto rather than a JS loop. */
const LONG_STRING = 48;

/** Largest body the codec will build; beyond it encoding fails instead of exhausting memory. */
export const MAX_ENCODED_BYTES = 16 * 1024 * 1024;

/** Bytes of the slab messages are written into, one after another. */
const SLAB_BYTES = 32 * 1024;

/** Messages up to this size are handed out in place; larger ones as an exact copy, so a grown buffer is not kept. */
const MAX_IN_PLACE = SLAB_BYTES / 4;

/**
 * A reusable, growable output buffer. Fixed-width writes assume the caller reserved room with {@link ensure}
 * (the schema reserves a whole struct's fixed part at once); variable-length writes reserve for themselves.
 *
 * Messages are written one after another into a shared slab and {@link finish} hands each out in place, never
 * to be written again: a copy out of a scratch buffer cost as much as encoding a small message, and a fresh
 * ArrayBuffer per message costs more. `pos` is an offset into `bytes`, not the message's length.
 */
export class ByteWriter {
  bytes: Uint8Array;
  view: DataView;
  /** The ArrayBuffer under `bytes` (offset 0), kept: a typed array's `buffer` is a slow, generic load. */
  private arrayBuffer: ArrayBuffer;
  pos = 0;
  /** Where the message being written starts in `bytes`. */
  private start = 0;

  constructor(private readonly capacity = SLAB_BYTES) {
    this.arrayBuffer = new ArrayBuffer(capacity);
    this.bytes = new Uint8Array(this.arrayBuffer);
    this.view = new DataView(this.arrayBuffer);
  }

  /** Starts a new message after the last one handed out (on 8 bytes, so callers may lay typed arrays over it). */
  reset(): void {
    const start = (this.pos + 7) & ~7;
    // A buffer grown for one big message, or a slab nearly used up, is left to the messages that live in it.
    if (this.bytes.length > this.capacity || start + MAX_IN_PLACE > this.bytes.length) this.replace(this.capacity, 0);
    else this.start = this.pos = start;
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    if (this.pos + n > this.bytes.length) this.grow(this.pos + n);
  }

  /** The message written since {@link reset}, exact length, safe to keep after the next message. */
  finish(): Uint8Array {
    const { start, pos } = this;
    if (pos - start > MAX_IN_PLACE) {
      this.pos = start; // the next message may reuse this space
      return this.bytes.slice(start, pos);
    }
    return new Uint8Array(this.arrayBuffer, start, pos - start);
  }

  u8(v: number): void {
    this.bytes[this.pos++] = v;
  }

  u16(v: number): void {
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
  }

  u32(v: number): void {
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }

  i32(v: number): void {
    this.view.setInt32(this.pos, v, true);
    this.pos += 4;
  }

  f32(v: number): void {
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
  }

  f64(v: number): void {
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  /** Unsigned LEB128 of an integer in 0..2^32-1 (at most 5 bytes; room must be reserved). */
  varint(v: number): void {
    const bytes = this.bytes;
    let pos = this.pos;
    while (v > 0x7f) {
      bytes[pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    bytes[pos++] = v;
    this.pos = pos;
  }

  /** Writes a varint length then the UTF-8 of `s`, whose UTF-8 length the caller measured as `byteLength`. */
  utf8(s: string, byteLength: number): void {
    this.ensure(5 + byteLength);
    this.varint(byteLength);
    const bytes = this.bytes;
    let pos = this.pos;
    const n = s.length;
    if (n >= LONG_STRING) {
      // Past a few dozen characters the engine's encoder beats a JS loop.
      textEncoder.encodeInto(s, bytes.subarray(pos, pos + byteLength));
      pos += byteLength;
    } else if (byteLength === n) {
      // ASCII: one byte per code unit, no encoder call.
      for (let i = 0; i < n; i++) bytes[pos++] = s.charCodeAt(i);
    } else {
      for (let i = 0; i < n; i++) {
        let c = s.charCodeAt(i);
        if (c < 0x80) {
          bytes[pos++] = c;
        } else if (c < 0x800) {
          bytes[pos++] = 0xc0 | (c >> 6);
          bytes[pos++] = 0x80 | (c & 0x3f);
        } else if (c >= 0xd800 && c <= 0xdbff) {
          // A pair: utf8Length already rejected lone surrogates.
          c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
          bytes[pos++] = 0xf0 | (c >> 18);
          bytes[pos++] = 0x80 | ((c >> 12) & 0x3f);
          bytes[pos++] = 0x80 | ((c >> 6) & 0x3f);
          bytes[pos++] = 0x80 | (c & 0x3f);
        } else {
          bytes[pos++] = 0xe0 | (c >> 12);
          bytes[pos++] = 0x80 | ((c >> 6) & 0x3f);
          bytes[pos++] = 0x80 | (c & 0x3f);
        }
      }
    }
    this.pos = pos;
  }

  /** Writes a varint length then `data`. */
  raw(data: Uint8Array): void {
    this.ensure(5 + data.length);
    this.varint(data.length);
    this.bytes.set(data, this.pos);
    this.pos += data.length;
  }

  /**
   * Moves to a buffer of at least `needed` bytes, the message written so far at the same offset: positions
   * callers took (`pos`, to rewind) stay valid.
   */
  private grow(needed: number): void {
    if (needed - this.start > MAX_ENCODED_BYTES) throw new CodecFailure(`message exceeds ${MAX_ENCODED_BYTES} bytes`);
    let capacity = Math.max(this.capacity, 64);
    while (capacity < needed) capacity *= 2;
    this.replace(Math.min(capacity, this.start + MAX_ENCODED_BYTES), this.pos);
  }

  /** A fresh buffer of `capacity` bytes holding the first `keep` bytes of this one. */
  private replace(capacity: number, keep: number): void {
    const buffer = new ArrayBuffer(capacity);
    const next = new Uint8Array(buffer);
    if (keep > 0) next.set(this.bytes.subarray(0, keep));
    this.arrayBuffer = buffer;
    this.bytes = next;
    this.view = new DataView(buffer);
    if (keep === 0) this.start = this.pos = 0;
  }
}

/** UTF-8 byte length of `s`, or -1 if it holds a lone surrogate (which UTF-8 cannot carry). */
export function utf8Length(s: string): number {
  const n = s.length;
  let length = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) {
      length += 1;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return -1;
      length += 2; // four bytes for two code units
      i++;
    } else {
      length += 2;
    }
  }
  return length;
}
