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
