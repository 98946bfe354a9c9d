import { describe, expect, it } from 'vitest';
import { arrayOf, arrayOfTuples, defineSchema, FieldType } from '../../../../main/net/codec/index';
import { SerializationError } from '../../../../main/net/index';

const fields = { g: FieldType.u16, i: arrayOfTuples(FieldType.u32, FieldType.f64, FieldType.u8) } as const;
const asStructs = { g: FieldType.u16, i: arrayOf({ s: FieldType.u32, x: FieldType.f64, t: FieldType.u8 }) } as const;
const value = {
  g: 7,
  i: [
    [1, 0.25, 0],
    [2, -1.5, 1],
  ] as [number, number, number][],
};

describe('arrays of tuples', () => {
  const schema = defineSchema(fields);

  it('round-trips tuples as arrays, in the same bytes as the equivalent array of structs', () => {
    const bytes = schema.encode(value);
    const decoded = schema.decode(bytes);
    expect(decoded).toStrictEqual(value);
    expect(Array.isArray(decoded.i[0])).toBe(true);
    const structs = { g: 7, i: value.i.map(([s, x, t]) => ({ s, x, t })) };
    expect([...defineSchema(asStructs).encode(structs)]).toEqual([...bytes]);
  });

  it.each([
    ['a short tuple', { g: 1, i: [[1, 0.5]] }],
    ['a long tuple', { g: 1, i: [[1, 0.5, 0, 9]] }],
    ['an object element', { g: 1, i: [{ 0: 1, 1: 0.5, 2: 0 }] }],
    ['a value out of range', { g: 1, i: [[1, 0.5, 256]] }],
    ['a non-finite value', { g: 1, i: [[1, Number.NaN, 0]] }],
  ])('refuses %s with a SerializationError', (_what, bad) => {
    expect(() => schema.encode(bad as never)).toThrow(SerializationError);
  });

  it('refuses every truncation and a trailing byte', () => {
    const bytes = schema.encode(value);
    for (let cut = 0; cut < bytes.length; cut++)
      expect(() => schema.decode(bytes.subarray(0, cut))).toThrow(SerializationError);
    expect(() => schema.decode(Uint8Array.from([...bytes, 0]))).toThrow(SerializationError);
  });
});

it('refuses a tuple of anything but scalars when the schema is defined', () => {
  const nested = { kind: 'array', tuple: [{ kind: 'struct' }], fields: { 0: { kind: 'struct', fields: {} } } };
  expect(() => defineSchema({ i: nested as never })).toThrow(TypeError);
});
