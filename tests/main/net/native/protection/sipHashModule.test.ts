import { describe, expect, it } from 'vitest';
import { SipHashKey } from '../../../../../main/net/native/protection/sipHash';
import {
  DATA_OFFSET,
  MAX_WASM_MESSAGE,
  instantiateSipHash,
} from '../../../../../main/net/native/protection/sipHashModule';

const key = Uint8Array.from({ length: 16 }, (_, i) => (i * 37 + 11) & 0xff);
const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 131 + seed) & 0xff);
const tagOf = (k: SipHashKey): string => `${k.high.toString(16)}:${k.low.toString(16)}`;

/** The tag of `prefix ‖ data[start, end)` as hashed in place, and as hashed from a fresh copy of those bytes alone. */
function inPlaceAndCopied(prefix: [number, number] | undefined, data: Uint8Array, start: number, end: number) {
  const k = new SipHashKey(key);
  if (prefix) k.hash(prefix[0], prefix[1], data, start, end);
  else k.hashBytes(data, start, end);
  const inPlace = tagOf(k);
  const copy = new Uint8Array((prefix ? 8 : 0) + end - start);
  if (prefix) {
    new DataView(copy.buffer).setUint32(0, prefix[1] >>> 0, true);
    new DataView(copy.buffer).setUint32(4, prefix[0] >>> 0, true);
  }
  copy.set(data.subarray(start, end), prefix ? 8 : 0);
  k.hashBytes(copy);
  return [inPlace, tagOf(k)];
}

describe('SipHash in WebAssembly', () => {
  it('compiles here (Node has WebAssembly), with its memory for the data', () => {
    const instance = instantiateSipHash();
    expect(instance.memory.length).toBe(DATA_OFFSET + MAX_WASM_MESSAGE + 8);
  });

  it('hashes a slice with a prefix as it hashes the same bytes copied out, for every tail length and offset', () => {
    const data = bytes(300, 5);
    for (let length = 0; length <= 40; length++) {
      for (const start of [0, 1, 7]) {
        for (const prefix of [undefined, [0x81234567, 0xfedcba98] as [number, number], [0, 0] as [number, number]]) {
          const [inPlace, copied] = inPlaceAndCopied(prefix, data, start, start + length);
          expect(inPlace, `length ${length} start ${start} prefix ${prefix}`).toBe(copied);
        }
      }
    }
  });

  it('hashes a whole MTU buffer up to the tag as it hashes that part alone', () => {
    const [inPlace, copied] = inPlaceAndCopied([1, 0xffffffff], bytes(1200, 9), 0, 1192);
    expect(inPlace).toBe(copied);
  });

  it('ignores stale bytes left in its memory past the data by a longer hash before', () => {
    const k = new SipHashKey(key);
    const short = bytes(13, 3);
    k.hash(0, 2, short, 0, 13);
    const before = tagOf(k);
    k.hash(0, 1, bytes(1000, 200), 0, 1000);
    k.hash(0, 2, short, 0, 13);
    expect(tagOf(k)).toBe(before);
  });

  it('hashes the largest UDP datagram, and refuses more than its memory holds', () => {
    expect(MAX_WASM_MESSAGE).toBeGreaterThanOrEqual(65_535);
    const data = bytes(MAX_WASM_MESSAGE + 1, 1);
    const [inPlace, copied] = inPlaceAndCopied([3, 4], data, 1, 65_508);
    expect(inPlace).toBe(copied);
    const k = new SipHashKey(key);
    k.hashBytes(data, 0, MAX_WASM_MESSAGE);
    expect(() => k.hashBytes(data)).toThrow(RangeError);
    expect(() => k.hash(0, 0, data, 0, MAX_WASM_MESSAGE + 1)).toThrow(RangeError);
  });

  it('tells different keys and different data apart', () => {
    const data = bytes(64, 0);
    const a = new SipHashKey(key);
    const b = new SipHashKey(Uint8Array.from(key, (x, i) => (i === 15 ? x ^ 1 : x)));
    a.hash(0, 0, data, 0, 64);
    b.hash(0, 0, data, 0, 64);
    expect([a.high, a.low]).not.toEqual([b.high, b.low]);
    const before = [a.high, a.low];
    data[63] = data[63]! ^ 0x80;
    a.hash(0, 0, data, 0, 64);
    expect([a.high, a.low]).not.toEqual(before);
  });
});
