/** Throws unless `value` is a whole number in 0 ≤ value < 2^32 (what a varint field holds). */
function checkU32(value: number): void {
  if (!(Number.isInteger(value) && value >= 0 && value <= 0xffffffff))
    throw new RangeError(`varint value ${value} is not an unsigned 32-bit integer`);
}

/** Bytes the unsigned LEB128 form of `value` (0 ≤ value < 2^32) takes; throws RangeError otherwise. */
export function varintSize(value: number): number {
  checkU32(value);
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  if (value < 0x10000000) return 4;
  return 5;
}

/** Writes `value` (0 ≤ value < 2^32) as unsigned LEB128 at `offset`; returns the offset after it. Throws RangeError otherwise. */
export function writeVarint(target: Uint8Array, offset: number, value: number): number {
  checkU32(value);
  let v = value;
  while (v >= 0x80) {
    target[offset++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  target[offset++] = v;
  return offset;
}

/** A cursor over untrusted bytes: every read checks bounds and throws {@link TruncatedError}. */
export class ByteReader {
  offset: number;

  constructor(
    readonly data: Uint8Array,
    offset = 0,
  ) {
    this.offset = offset;
  }

  /** Bytes left to read. */
  get remaining(): number {
    return this.data.byteLength - this.offset;
  }

  /** One byte. */
  u8(): number {
    if (this.offset >= this.data.byteLength) throw new TruncatedError();
    return this.data[this.offset++]!;
  }

  /** An unsigned LEB128 value below 2^32, in at most 5 bytes. */
  varint(): number {
    const first = this.data[this.offset];
    if (first !== undefined && first < 0x80) {
      // Most fields (channels' sequences early on, lengths under 128) fit one byte.
      this.offset += 1;
      return first;
    }
    // A local cursor: sequences past 127 take this path on every frame.
    const data = this.data;
    let at = this.offset;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 5; i++) {
      if (at >= data.byteLength) throw new TruncatedError();
      const byte = data[at++]!;
      if (i === 4 && byte > 0x0f) throw new TruncatedError('varint exceeds 32 bits');
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        this.offset = at;
        return result;
      }
      scale *= 128;
    }
    throw new TruncatedError('varint longer than 5 bytes');
  }

  /** `length` bytes as a view (no copy). */
  bytes(length: number): Uint8Array {
    if (length > this.remaining) throw new TruncatedError();
    const out = this.data.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }
}

/** Bytes ended before a field did, or a field is malformed. */
export class TruncatedError extends Error {
  override name = 'TruncatedError';
  constructor(message = 'datagram ends inside a field') {
    super(message);
  }
}
