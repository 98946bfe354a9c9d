import { describe, expect, it } from 'vitest';
import { ByteReader } from '../../../../main/net/codec/byteReader';
import { ByteWriter, utf8Length } from '../../../../main/net/codec/byteWriter';
import { CodecFailure } from '../../../../main/net/codec/codecFailure';
import { slabCopy } from '../../../../main/net/codec/slabCopy';

describe('varints', () => {
  it.each([
    [0, [0]],
    [127, [0x7f]],
    [128, [0x80, 0x01]],
    [16383, [0xff, 0x7f]],
    [16384, [0x80, 0x80, 0x01]],
    [2 ** 32 - 1, [0xff, 0xff, 0xff, 0xff, 0x0f]],
  ])('%i is %j and reads back', (value, encoded) => {
    const w = new ByteWriter(8);
    w.ensure(5);
    w.varint(value);
    expect([...w.finish()]).toEqual(encoded);
    expect(new ByteReader(Uint8Array.from(encoded)).varint()).toBe(value);
  });
});

describe('ByteWriter', () => {
  it('grows past its initial capacity and shrinks back on reset', () => {
    const w = new ByteWriter(4);
    const data = Uint8Array.from({ length: 100_000 }, (_, i) => i & 0xff);
    w.raw(data);
    expect(w.bytes.length).toBeGreaterThanOrEqual(100_003);
    expect(w.finish().subarray(3)).toEqual(data);
    w.reset();
    expect(w.bytes.length).toBe(4);
    expect(w.pos).toBe(0);
  });

  it('hands out each message in place, never written again, across slabs and growth', () => {
    const w = new ByteWriter();
    const kept: { body: Uint8Array; fill: number; length: number }[] = [];
    // Small messages fill several slabs; every 97th is large enough to grow the buffer mid-message.
    for (let i = 0; i < 3000; i++) {
      w.reset();
      const length = i % 97 === 0 ? 20_000 + i : 1 + ((i * 31) % 300);
      const fill = i & 0xff;
      w.ensure(1);
      w.u8(fill); // written before the buffer grows, so growth must carry it over
      w.raw(new Uint8Array(length).fill(fill));
      const body = w.finish();
      expect(body.byteOffset % 8).toBe(0);
      kept.push({ body, fill, length });
    }
    for (const { body, fill, length } of kept) {
      expect(body.byteLength).toBe(1 + length + (length < 128 ? 1 : length < 16_384 ? 2 : 3));
      expect(body[0]).toBe(fill);
      expect(body.subarray(body.byteLength - length).every((b) => b === fill)).toBe(true);
    }
  });

  it('keeps a position taken before the buffer grew valid for rewinding', () => {
    const w = new ByteWriter(64);
    w.reset();
    w.ensure(1);
    w.u8(7);
    const mark = w.pos;
    w.raw(new Uint8Array(5000).fill(1)); // grows
    w.pos = mark;
    w.ensure(1);
    w.u8(9);
    expect([...w.finish()]).toEqual([7, 9]);
  });

  it('measures UTF-8 and flags lone surrogates', () => {
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é日🎮')).toBe(2 + 3 + 4);
    expect(utf8Length('\ud83c')).toBe(-1);
    expect(utf8Length('x\udfffx')).toBe(-1);
    expect(utf8Length('\ud83c\ud83c\udfae')).toBe(-1);
  });
});

describe('ByteReader', () => {
  it('never reads past the end, even of a view into a larger buffer', () => {
    const backing = Uint8Array.from({ length: 16 }, (_, i) => i);
    const r = new ByteReader(backing.subarray(4, 6));
    expect(r.u8()).toBe(4);
    expect(() => r.u16()).toThrow(CodecFailure);
    expect(r.u8()).toBe(5);
    expect(() => r.u8()).toThrow(/needs 1 byte\(s\) at offset 2, 0 left/);
    expect(() => new ByteReader(backing.subarray(0, 3)).f64()).toThrow(CodecFailure);
  });
});

describe('slabCopy', () => {
  it('returns exact-length, independent, 8-byte-aligned copies', () => {
    const source = Uint8Array.from({ length: 100 }, (_, i) => i);
    const a = slabCopy(source, 13);
    const b = slabCopy(source, 40);
    source.fill(0);
    expect(a).toEqual(Uint8Array.from({ length: 13 }, (_, i) => i));
    expect(b.byteLength).toBe(40);
    expect(b[39]).toBe(39);
    expect(b.byteOffset % 8).toBe(0);
  });

  it('gives big copies their own buffer and starts a new slab when one is full', () => {
    const big = slabCopy(new Uint8Array(20_000), 20_000);
    expect(big.byteOffset).toBe(0);
    expect(big.buffer.byteLength).toBe(20_000);
    const copies = Array.from({ length: 40 }, (_, i) => slabCopy(new Uint8Array(1000).fill(i), 1000));
    expect(new Set(copies.map((c) => c.buffer)).size).toBeGreaterThan(1);
    copies.forEach((c, i) => expect(c.every((x) => x === i)).toBe(true));
  });
});
