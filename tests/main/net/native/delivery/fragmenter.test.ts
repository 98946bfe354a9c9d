import { describe, expect, it } from 'vitest';
import { fragmentCount, splitMessage } from '../../../../../main/net/native/delivery/fragmenter';

function bytes(n: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) & 0xff);
}

describe('fragmentCount', () => {
  it('rounds up and is at least 1', () => {
    expect(fragmentCount(0, 10)).toBe(1);
    expect(fragmentCount(1, 10)).toBe(1);
    expect(fragmentCount(10, 10)).toBe(1);
    expect(fragmentCount(11, 10)).toBe(2);
    expect(fragmentCount(20, 10)).toBe(2);
    expect(fragmentCount(21, 10)).toBe(3);
    expect(fragmentCount(5, 1)).toBe(5);
  });

  it('rejects bad arguments with RangeError', () => {
    expect(() => fragmentCount(10, 0)).toThrow(RangeError);
    expect(() => fragmentCount(10, -1)).toThrow(RangeError);
    expect(() => fragmentCount(10, 1.5)).toThrow(RangeError);
    expect(() => fragmentCount(10, Number.NaN)).toThrow(RangeError);
    expect(() => fragmentCount(-1, 10)).toThrow(RangeError);
    expect(() => fragmentCount(Number.POSITIVE_INFINITY, 10)).toThrow(RangeError);
  });
});

describe('splitMessage', () => {
  it('yields one empty piece for an empty body', () => {
    const pieces = splitMessage(new Uint8Array(0), 100);
    expect(pieces).toHaveLength(1);
    expect(pieces[0]?.byteLength).toBe(0);
  });

  it('yields the whole body as one piece when it fits exactly', () => {
    const body = bytes(100);
    const pieces = splitMessage(body, 100);
    expect(pieces).toHaveLength(1);
    expect(pieces[0]).toEqual(body);
  });

  it('splits into full pieces plus a shorter last one, concatenating back to the body', () => {
    const body = bytes(2501);
    const pieces = splitMessage(body, 1000);
    expect(pieces.map((p) => p.byteLength)).toEqual([1000, 1000, 501]);
    expect(pieces).toHaveLength(fragmentCount(body.byteLength, 1000));
    expect(Buffer.concat(pieces)).toEqual(Buffer.from(body));
  });

  it('returns views sharing the body memory, not copies', () => {
    const body = bytes(30);
    const pieces = splitMessage(body, 10);
    for (const [i, piece] of pieces.entries()) {
      expect(piece.buffer).toBe(body.buffer);
      expect(piece.byteOffset).toBe(body.byteOffset + i * 10);
    }
    body[15] = 0xee;
    expect(pieces[1]?.[5]).toBe(0xee);
  });

  it('respects the offset of a body that is itself a view', () => {
    const backing = bytes(50);
    const body = backing.subarray(7, 32);
    const pieces = splitMessage(body, 10);
    expect(pieces.map((p) => p.byteOffset)).toEqual([7, 17, 27]);
    expect(Buffer.concat(pieces)).toEqual(Buffer.from(body));
  });

  it('throws RangeError on maxPiece < 1', () => {
    expect(() => splitMessage(bytes(5), 0)).toThrow(RangeError);
    expect(() => splitMessage(new Uint8Array(0), -3)).toThrow(RangeError);
  });
});
