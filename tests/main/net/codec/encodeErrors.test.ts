import { describe, expect, it } from 'vitest';
import { MAX_ENCODED_BYTES } from '../../../../main/net/codec';
import { SerializationError } from '../../../../main/net/v1/serialization';
import { allTypesSchema, sampleAllTypes } from './allTypesSchema';

/** The error `fn` throws; fails the test if it throws nothing or something other than a SerializationError. */
function errorOf(fn: () => unknown): SerializationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SerializationError);
    return error as SerializationError;
  }
  throw new Error('expected a SerializationError');
}

const cases: [string, Record<string, unknown>, string, RegExp][] = [
  ['missing u8', { a: undefined }, 'a', /expected u8.*undefined \(missing\)/],
  ['u8 too big', { a: 256 }, 'a', /u8.*got 256/],
  ['u8 negative', { a: -1 }, 'a', /u8/],
  ['u8 fractional', { a: 1.5 }, 'a', /u8/],
  ['u8 as string', { a: '7' }, 'a', /u8.*got "7"/],
  ['u16 too big', { b: 65536 }, 'b', /u16/],
  ['u32 too big', { c: 2 ** 32 }, 'c', /u32/],
  ['u32 negative', { c: -1 }, 'c', /u32/],
  ['u32 NaN', { c: NaN }, 'c', /u32.*NaN/],
  ['i32 too big', { d: 2 ** 31 }, 'd', /i32/],
  ['i32 too small', { d: -(2 ** 31) - 1 }, 'd', /i32/],
  ['i32 fractional', { d: 0.5 }, 'd', /i32/],
  ['f32 NaN', { e: NaN }, 'e', /f32/],
  ['f32 beyond float32', { e: 1e39 }, 'e', /f32.*3\.4e38/],
  ['f32 boolean', { e: true }, 'e', /f32.*a boolean/],
  ['f64 Infinity', { f: Infinity }, 'f', /f64.*Infinity/],
  ['f64 NaN', { f: NaN }, 'f', /f64/],
  ['f64 bigint', { f: 1n }, 'f', /f64.*a bigint/],
  ['bool as number', { g: 1 }, 'g', /bool/],
  ['string as number', { h: 5 }, 'h', /string/],
  ['lone surrogate', { h: 'a\ud800b' }, 'h', /lone surrogate/],
  ['lone low surrogate', { h: '\udc00' }, 'h', /lone surrogate/],
  ['bytes as array', { i: [1, 2] }, 'i', /bytes.*an array/],
  ['array as object', { list: {} }, 'list', /an array/],
  ['array element not an object', { list: [{ n: 1, s: '' }, 5] }, 'list[1]', /an object.*got 5/],
  [
    'array element field',
    {
      list: [
        { n: 1, s: '' },
        { n: 1, s: '' },
        { n: 1, s: 9 },
      ],
    },
    'list[2].s',
    /string/,
  ],
  ['optional as number', { maybe: 3 }, 'maybe', /an object/],
  ['optional inner field', { maybe: { x: 1, inner: { y: 300 } } }, 'maybe.inner.y', /u8/],
  ['struct missing', { nested: undefined }, 'nested', /an object/],
  ['struct as array', { nested: [] }, 'nested', /an object.*an array/],
  ['struct field', { nested: { flag: 'no', data: new Uint8Array(0) } }, 'nested.flag', /bool/],
];

describe('encode errors', () => {
  const schema = allTypesSchema;
  it.each(cases)('%s: names the path', (_name, patch, path, reason) => {
    const error = errorOf(() => schema.encode({ ...sampleAllTypes(), ...patch } as never));
    expect(error.message).toContain(`at ${path}:`);
    expect(error.message).toMatch(reason);
  });

  it.each([null, [], 'text', 5, new Uint8Array(1)])('rejects a payload that is %s', (payload) => {
    expect(errorOf(() => schema.encode(payload as never)).message).toMatch(/expected an object/);
  });

  it('still works after a failure (the shared buffer is reset)', () => {
    errorOf(() => schema.encode({ ...sampleAllTypes(), list: [{ n: 1, s: 'x'.repeat(5000) }, null] } as never));
    expect(schema.decode(schema.encode(sampleAllTypes()))).toEqual(sampleAllTypes());
  });

  it('refuses a body larger than MAX_ENCODED_BYTES instead of growing without bound', () => {
    const huge = new Uint8Array(MAX_ENCODED_BYTES);
    const error = errorOf(() => schema.encode({ ...sampleAllTypes(), i: huge }));
    expect(error.message).toMatch(/at i: message exceeds/);
  });
});
