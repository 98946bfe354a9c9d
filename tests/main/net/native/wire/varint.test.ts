import { describe, expect, it } from 'vitest';
import { NativeParseError, PacketCursor } from '../../../../../main/net/native/wire/packetCursor';
import { varintSize, writeVarint } from '../../../../../main/net/native/wire/varint';
import { Frame } from '../../../../../main/net/native/wire/nativeWire';
import { nativeDatagram } from '../../../../support/nativeDatagram';

/** Reads varints back the way the receive path does: as the ids of PING frames. */
function readIds(...encoded: Uint8Array[]): number[] {
  const cursor = new PacketCursor(nativeDatagram(1n, ...encoded.map((e) => [Frame.PING, ...e])));
  const ids: number[] = [];
  while (cursor.nextFrame()) ids.push(cursor.id);
  return ids;
}

/** Whether a PING frame whose id is these bytes is refused, with a message matching `message`. */
function refused(bytes: number[], message?: RegExp): void {
  let thrown: unknown;
  try {
    new PacketCursor(nativeDatagram(1n, [Frame.PING, ...bytes]));
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(NativeParseError);
  if (message) expect((thrown as Error).message).toMatch(message);
}

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
    expect(readIds(encoded)).toEqual([value]);
  });

  it('writes at an offset and returns the offset after it', () => {
    const out = new Uint8Array(8).fill(0xee);
    expect(writeVarint(out, 3, 128)).toBe(5);
    expect([...out]).toEqual([0xee, 0xee, 0xee, 0x80, 0x01, 0xee, 0xee, 0xee]);
  });

  it('reads consecutive values', () => {
    const values = [0, 127, 128, 2 ** 14, 2 ** 32 - 1, 5];
    expect(readIds(...values.map(encode))).toEqual(values);
  });

  it('round-trips a spread of values, its size always matching', () => {
    for (let v = 1; v < 2 ** 32; v = Math.floor(v * 1.37) + 1) expect(readIds(encode(v))).toEqual([v]);
  });

  it('refuses to size or write a value outside 0 … 2^32-1 (RangeError), writing nothing', () => {
    for (const bad of [-1, 2 ** 32, 2 ** 53, 1.5, Number.NaN, Infinity]) {
      expect(() => varintSize(bad)).toThrow(RangeError);
      const out = new Uint8Array(8);
      expect(() => writeVarint(out, 0, bad)).toThrow(RangeError);
      expect(out.every((b) => b === 0)).toBe(true);
    }
  });

  it('refuses a value cut short at every length', () => {
    const full = [...encode(2 ** 32 - 1)];
    for (let cut = 0; cut < full.length; cut++) refused(full.slice(0, cut), /ends inside a field/);
  });

  it('refuses a six-byte varint', () => {
    refused([0x80, 0x80, 0x80, 0x80, 0x80, 0x00], /exceeds 32 bits|longer than 5 bytes/);
    refused([0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
  });

  it('refuses a fifth byte that overflows 32 bits (2^32 and beyond), and reads the largest legal one', () => {
    refused([0x80, 0x80, 0x80, 0x80, 0x10], /exceeds 32 bits/);
    refused([0xff, 0xff, 0xff, 0xff, 0x7f], /exceeds 32 bits/);
    expect(readIds(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x0f))).toEqual([0xf0000000]);
  });
});
