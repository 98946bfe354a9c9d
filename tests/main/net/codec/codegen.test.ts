import { afterEach, describe, expect, it, vi } from 'vitest';
import { arrayOf, defineSchema, FieldType, optional, struct } from '../../../../main/net/codec';
import { decoderSource } from '../../../../main/net/codec/generateDecoder';
import { encoderSource } from '../../../../main/net/codec/generateEncoder';
import { allTypesFields, sampleAllTypes } from './allTypesSchema';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('generated code', () => {
  it('is used by default and embeds field names only as string literals', () => {
    const hostile = `"]; globalThis.pwned = 1; //`;
    const fields = {
      [hostile]: FieldType.u8,
      'new\nline': FieldType.string,
      '\u2028sep': FieldType.bool,
      constructor: FieldType.u16,
      '0': FieldType.u8,
      list: arrayOf({ [hostile]: FieldType.u8 }),
      maybe: optional({ "'": FieldType.u8 }),
    } as const;
    const schema = defineSchema(fields);
    const value = {
      [hostile]: 1,
      'new\nline': 'x',
      '\u2028sep': true,
      constructor: 2,
      '0': 3,
      list: [{ [hostile]: 4 }],
      maybe: { "'": 5 },
    };
    expect(schema.decode(schema.encode(value))).toEqual(value);
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined();
    expect(encoderSource(schema.plan)).toContain(JSON.stringify(hostile));
  });

  it('reads constant property names and builds fixed-shape literals', () => {
    const plan = defineSchema({ a: FieldType.u8, s: struct({ b: FieldType.f32 }) }).plan;
    expect(encoderSource(plan)).toMatch(/v\["a"\]/);
    expect(decoderSource(plan)).toMatch(/return \{ "a": a0, "s": a1 \};/);
  });

  it('keeps the wire bytes pinned (the vector predates the interpreter’s removal) and names a failing path', () => {
    const schema = defineSchema(allTypesFields);
    expect(Buffer.from(schema.encode(sampleAllTypes())).toString('hex')).toBe(
      '072c0170110100fbffffff0000c03f182d4454fb210940010668c3a96c6c6f030102030201036f6e65020001ffffffff01090000',
    );
    const bad = {
      ...sampleAllTypes(),
      list: [
        { n: 1, s: 'a' },
        { n: 999, s: 'b' },
      ],
    };
    expect(() => schema.encode(bad)).toThrow('cannot encode at list[1].n: expected u8 (integer 0..255), got 999');
  });

  it('fails at definition time where code generation is disabled (no slower fallback is kept)', () => {
    vi.stubGlobal(
      'Function',
      class {
        constructor() {
          throw new EvalError('Code generation from strings disallowed for this context');
        }
      },
    );
    expect(() => defineSchema(allTypesFields)).toThrow(EvalError);
  });

  it('rejects malformed schemas at definition time', () => {
    expect(() => defineSchema({ a: 'u64' as never })).toThrow(/field a has an unknown type/);
    expect(() => defineSchema({ a: 'toString' as never })).toThrow(TypeError);
    expect(() => defineSchema({ s: struct({ b: { kind: 'map' } as never }) })).toThrow(
      /field s\.b has an unknown type/,
    );
    expect(() => defineSchema({ l: arrayOf({}) })).toThrow(/l: array elements need at least one field/);
    expect(() => defineSchema({ l: arrayOf({ o: struct({}) }) })).toThrow(/array elements need/);
    expect(() => defineSchema(JSON.parse('{"__proto__": "u8"}') as never)).toThrow(/__proto__/);
    expect(defineSchema({}).encode({}).byteLength).toBe(0);
  });
});
