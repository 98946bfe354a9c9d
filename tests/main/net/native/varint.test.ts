import { describe, expect, it } from 'vitest';
import { ByteReader, TruncatedError, varintSize, writeVarint } from '../../../../main/net/native/varint';

/** Encodes one value into a fresh, exactly sized array. */
function encode(value: number): Uint8Array {
  const out = new Uint8Array(varintSize(value));
  expect(writeVarint(out, 0, value)).toBe(out.byteLength);
  return out;
}

const BOUNDARIES: Array<[number, number[]]> = [
  [0, [0x00]],
  [1, [0x01]],
  [127, [0x7f]],
  [128, [0x80, 0x01]],
  [300, [0xac, 0x02]],
  [2 ** 14 - 1, [0xff, 0x7f]],
  [2 ** 14, [0x80, 0x80, 0x01]],
  [2 ** 21 - 1, [0xff, 0xff, 0x7f]],
  [2 ** 21, [0x80, 0x80, 0x80, 0x01]],
  [2 ** 28 - 1, [0xff, 0xff, 0xff, 0x7f]],
  [2 ** 28, [0x80, 0x80, 0x80, 0x80, 0x01]],
  [2 ** 31, [0x80, 0x80, 0x80, 0x80, 0x08]],
  [2 ** 32 - 1, [0xff, 0xff, 0xff, 0xff, 0x0f]],
];

describe('varint', () => {
  it.each(BOUNDARIES)('%d encodes as unsigned LEB128 and reads back', (value, bytes) => {
    const encoded = encode(value);
    expect([...encoded]).toEqual(bytes);
    expect(varintSize(value)).toBe(bytes.length);
    const reader = new ByteReader(encoded);
    expect(reader.varint()).toBe(value);
    expect(reader.remaining).toBe(0);
  });

  it('writes at an offset and returns the offset after it', () => {
    const out = new Uint8Array(8).fill(0xee);
    expect(writeVarint(out, 3, 128)).toBe(5);
    expect([...out]).toEqual([0xee, 0xee, 0xee, 0x80, 0x01, 0xee, 0xee, 0xee]);
  });

  it('reads consecutive values from the middle of a buffer', () => {
    const values = [0, 127, 128, 2 ** 14, 2 ** 32 - 1, 5];
    const out = new Uint8Array(64);
    let at = 2;
    for (const v of values) at = writeVarint(out, at, v);
    const reader = new ByteReader(out.subarray(0, at), 2);
    expect(values.map(() => reader.varint())).toEqual(values);
    expect(reader.remaining).toBe(0);
  });

  it('round-trips a spread of values, its size always matching', () => {
    for (let v = 1; v < 2 ** 32; v = Math.floor(v * 1.37) + 1) {
      const encoded = encode(v);
      expect(new ByteReader(encoded).varint()).toBe(v);
    }
  });

  it('refuses to size or write a value outside 0 … 2^32-1 (RangeError), writing nothing', () => {
    for (const bad of [-1, 2 ** 32, 2 ** 53, 1.5, Number.NaN, Infinity]) {
      expect(() => varintSize(bad)).toThrow(RangeError);
      const out = new Uint8Array(8);
      expect(() => writeVarint(out, 0, bad)).toThrow(RangeError);
      expect(out.every((b) => b === 0)).toBe(true);
    }
  });

  it('throws TruncatedError for a value cut short at every length', () => {
    const full = encode(2 ** 32 - 1);
    for (let cut = 0; cut < full.byteLength; cut++) {
      expect(() => new ByteReader(full.subarray(0, cut)).varint()).toThrow(TruncatedError);
    }
  });

  it('throws TruncatedError for a six-byte varint', () => {
    const six = Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0x00);
    expect(() => new ByteReader(six).varint()).toThrow(TruncatedError);
    const sixOnes = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    expect(() => new ByteReader(sixOnes).varint()).toThrow(TruncatedError);
  });

  it('throws TruncatedError for a fifth byte that overflows 32 bits (2^32 and beyond)', () => {
    expect(() => new ByteReader(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x10)).varint()).toThrow(/exceeds 32 bits/);
    expect(() => new ByteReader(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x7f)).varint()).toThrow(TruncatedError);
    // the largest legal fifth byte still reads
    expect(new ByteReader(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x0f)).varint()).toBe(0xf0000000);
  });

  it('a failed read consumes nothing, so it cannot leave half a value behind', () => {
    const reader = new ByteReader(Uint8Array.of(0x80));
    expect(() => reader.varint()).toThrow(TruncatedError);
    expect(reader.offset).toBe(0);
    expect(() => reader.varint()).toThrow(TruncatedError);
  });
});

describe('ByteReader', () => {
  it('reads bytes as views and refuses to read past the end', () => {
    const data = Uint8Array.of(1, 2, 3, 4, 5);
    const reader = new ByteReader(data, 1);
    expect(reader.u8()).toBe(2);
    const view = reader.bytes(2);
    expect([...view]).toEqual([3, 4]);
    expect(view.buffer).toBe(data.buffer);
    expect(reader.remaining).toBe(1);
    expect(() => reader.bytes(2)).toThrow(TruncatedError);
    expect(reader.bytes(1)[0]).toBe(5);
    expect(reader.bytes(0).byteLength).toBe(0);
    expect(() => reader.u8()).toThrow(TruncatedError);
  });

  it('TruncatedError is an Error with its own name', () => {
    const error = new TruncatedError();
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('TruncatedError');
    expect(error.message).toMatch(/ends inside a field/);
  });
});
