import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineSchema, FieldType, type SchemaValue } from '../../../../main/net/codec';
import { allTypesSchema, sampleAllTypes, type AllTypes } from './allTypesSchema';

const scalarSchemas = () => ({
  u8: defineSchema({ v: FieldType.u8 }),
  u16: defineSchema({ v: FieldType.u16 }),
  u32: defineSchema({ v: FieldType.u32 }),
  i32: defineSchema({ v: FieldType.i32 }),
  f32: defineSchema({ v: FieldType.f32 }),
  f64: defineSchema({ v: FieldType.f64 }),
  bool: defineSchema({ v: FieldType.bool }),
  string: defineSchema({ v: FieldType.string }),
  bytes: defineSchema({ v: FieldType.bytes }),
});

describe('round trips', () => {
  const s = scalarSchemas();
  const back = <T>(schema: { encode(v: { v: T }): Uint8Array; decode(b: Uint8Array): { v: T } }, v: T): T =>
    schema.decode(schema.encode({ v })).v;

  it('integers at their edges, little-endian at fixed width', () => {
    for (const v of [0, 1, 127, 128, 255]) expect(back(s.u8, v)).toBe(v);
    for (const v of [0, 255, 256, 65535]) expect(back(s.u16, v)).toBe(v);
    for (const v of [0, 65536, 2 ** 31, 4294967295]) expect(back(s.u32, v)).toBe(v);
    for (const v of [0, -1, 2147483647, -2147483648]) expect(back(s.i32, v)).toBe(v);
    expect([...s.u16.encode({ v: 0x1234 })]).toEqual([0x34, 0x12]);
    expect([...s.u32.encode({ v: 4294967295 })]).toEqual([0xff, 0xff, 0xff, 0xff]);
    expect([...s.i32.encode({ v: -2 })]).toEqual([0xfe, 0xff, 0xff, 0xff]);
  });

  it('f32 rounds to the nearest float32; f64 is exact; -0 survives', () => {
    expect(back(s.f32, 0.1)).toBe(Math.fround(0.1));
    expect(back(s.f32, 0.1)).not.toBe(0.1);
    expect(back(s.f32, 3.4028234663852886e38)).toBe(3.4028234663852886e38);
    expect(back(s.f32, 1e-45)).toBe(Math.fround(1e-45));
    expect(Object.is(back(s.f32, -0), -0)).toBe(true);
    for (const v of [Math.PI, Number.MAX_VALUE, Number.MIN_VALUE, -1e-300]) expect(back(s.f64, v)).toBe(v);
    expect(Object.is(back(s.f64, -0), -0)).toBe(true);
    expect(s.f64.encode({ v: 1 }).byteLength).toBe(8);
  });

  it('bools as one byte 0/1', () => {
    expect(back(s.bool, true)).toBe(true);
    expect(back(s.bool, false)).toBe(false);
    expect([...s.bool.encode({ v: true })]).toEqual([1]);
  });

  it('strings: empty, ASCII at the hand-decoding boundary, unicode, BOM, NUL, long', () => {
    const cases = [
      '',
      'a',
      'x'.repeat(32),
      'x'.repeat(33),
      'héllo',
      '日本語',
      '🎮 game',
      '\ufeffbom',
      'a\0b',
      'é'.repeat(5000),
    ];
    for (const v of cases) expect(back(s.string, v)).toBe(v);
    expect([...s.string.encode({ v: 'é' })]).toEqual([2, 0xc3, 0xa9]);
    expect([...s.string.encode({ v: '🎮' })]).toEqual([4, 0xf0, 0x9f, 0x8e, 0xae]);
    expect(s.string.encode({ v: 'y'.repeat(200) }).byteLength).toBe(202); // two-byte varint length
  });

  it('bytes: empty, every value, large; decoded bytes are a copy', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(back(s.bytes, new Uint8Array(0))).toEqual(new Uint8Array(0));
    expect(back(s.bytes, all)).toEqual(all);
    const large = Uint8Array.from({ length: 100_000 }, (_, i) => i * 7);
    expect(Buffer.from(back(s.bytes, large)).equals(large)).toBe(true);
    const body = s.bytes.encode({ v: all });
    const decoded = s.bytes.decode(body).v;
    body[5] = 99;
    expect(decoded[4]).toBe(4);
  });
});

describe('nested structures', () => {
  const schema = allTypesSchema;
  it('round-trips every field type together', () => {
    const value = sampleAllTypes();
    expect(schema.decode(schema.encode(value))).toEqual(value);
  });

  it('empty arrays and absent optionals (undefined or null) leave no key', () => {
    const value: AllTypes = { ...sampleAllTypes(), list: [], maybe: undefined };
    const decoded = schema.decode(schema.encode(value));
    expect(decoded.list).toEqual([]);
    expect('maybe' in decoded).toBe(false);
    const withNull = schema.decode(schema.encode({ ...sampleAllTypes(), maybe: { x: 1, inner: null } }));
    expect(withNull.maybe).toEqual({ x: 1 });
    expect('inner' in withNull.maybe!).toBe(false);
  });

  it('ignores properties the schema does not name', () => {
    const value = { ...sampleAllTypes(), extra: 'dropped' } as AllTypes;
    expect(schema.decode(schema.encode(value))).toEqual(sampleAllTypes());
  });

  it('returns exact-length copies that later encodes do not touch', () => {
    const first = schema.encode(sampleAllTypes());
    const snapshot = [...first];
    for (let i = 0; i < 200; i++) schema.encode({ ...sampleAllTypes(), a: i });
    expect([...first]).toEqual(snapshot);
    expect(first.byteLength).toBe(snapshot.length);
  });
});

describe('schema types', () => {
  it('infers the value type, optional structs as optional keys', () => {
    const schema = defineSchema({ id: FieldType.u16, name: FieldType.string, flag: FieldType.bool });
    expectTypeOf<SchemaValue<typeof schema>>().toEqualTypeOf<{ id: number; name: string; flag: boolean }>();
    expectTypeOf<AllTypes['maybe']>().toEqualTypeOf<{ x: number; inner?: { y: number } | null } | null | undefined>();
    // @ts-expect-error a string is not a u16
    expect(() => schema.encode({ id: 'x', name: '', flag: true })).toThrow();
  });
});
