import { describe, expect, it } from 'vitest';
import { SipHashKey } from '../../../../../main/net/native/protection/sipHash';
import {
  DATA_OFFSET,
  MAX_WASM_MESSAGE,
  instantiateSipHash,
} from '../../../../../main/net/native/protection/sipHashModule';

const key = Uint8Array.from({ length: 16 }, (_, i) => (i * 37 + 11) & 0xff);
const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 131 + seed) & 0xff);

/** Both engines' tag of the same input, as [wasm, script]. */
function both(prefix: [number, number] | undefined, data: Uint8Array, start: number, end: number): string[] {
  return [new SipHashKey(key, 'wasm'), new SipHashKey(key, 'script')].map((k) => {
    if (prefix) k.hash(prefix[0], prefix[1], data, start, end);
    else k.hashBytes(data, start, end);
    return `${k.high.toString(16)}:${k.low.toString(16)}`;
  });
}

describe('SipHash in WebAssembly', () => {
  it('compiles here (Node has WebAssembly), with its memory for the data', () => {
    const instance = instantiateSipHash();
    expect(instance).toBeDefined();
    expect(instance!.memory.length).toBe(DATA_OFFSET + MAX_WASM_MESSAGE + 8);
  });

  it('agrees with the script version for every tail length, offset and prefix, high bits set', () => {
    const data = bytes(300, 5);
    for (let length = 0; length <= 40; length++) {
      for (const start of [0, 1, 7]) {
        for (const prefix of [undefined, [0x81234567, 0xfedcba98] as [number, number], [0, 0] as [number, number]]) {
          const [wasm, script] = both(prefix, data, start, start + length);
          expect(wasm, `length ${length} start ${start} prefix ${prefix}`).toBe(script);
        }
      }
    }
  });

  it('agrees on a whole MTU buffer hashed up to the tag (the sealer copies the buffer, not a view)', () => {
    const buffer = bytes(1200, 9);
    const [wasm, script] = both([1, 0xffffffff], buffer, 0, 1192);
    expect(wasm).toBe(script);
  });

  it('ignores stale bytes left in its memory past the data by a longer hash before', () => {
    const k = new SipHashKey(key, 'wasm');
    k.hash(0, 1, bytes(1000, 200), 0, 1000);
    const short = bytes(13, 3);
    const [wasm, script] = both([0, 2], short, 0, 13);
    expect(wasm).toBe(script);
  });

  it('falls back to the script version beyond the largest message its memory holds', () => {
    const data = bytes(MAX_WASM_MESSAGE + 100, 1);
    for (const end of [MAX_WASM_MESSAGE, MAX_WASM_MESSAGE + 1, MAX_WASM_MESSAGE + 100]) {
      const [wasm, script] = both([3, 4], data, 0, end);
      expect(wasm, `end ${end}`).toBe(script);
    }
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
