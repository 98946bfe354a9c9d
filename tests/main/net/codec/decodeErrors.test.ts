import { describe, expect, it } from 'vitest';
import { arrayOf, defineSchema, FieldType, optional, struct } from '../../../../main/net/codec';
import { SerializationError } from '../../../../main/net/v1/serialization';
import { entitySnapshot, entitySnapshotSchema } from '../../../support/entitySnapshot';
import { allTypesSchema, sampleAllTypes } from './allTypesSchema';

/** The message of the error `fn` throws; fails unless it is a SerializationError. */
function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SerializationError);
    return (error as Error).message;
  }
  throw new Error('expected a SerializationError');
}

const bytes = (...b: number[]) => new Uint8Array(b);

describe('decode errors', () => {
  const one = {
    u8: defineSchema({ v: FieldType.u8 }),
    f32: defineSchema({ v: FieldType.f32 }),
    f64: defineSchema({ v: FieldType.f64 }),
    bool: defineSchema({ v: FieldType.bool }),
    string: defineSchema({ v: FieldType.string }),
    bytes: defineSchema({ v: FieldType.bytes }),
    list: defineSchema({ v: arrayOf({ n: FieldType.u8 }) }),
    maybe: defineSchema({ v: optional({ n: FieldType.u8 }) }),
  };

  it('throws SerializationError for every truncation of a valid body', () => {
    const snapshot = entitySnapshotSchema.encode(entitySnapshot());
    const schema = entitySnapshotSchema;
    for (let length = 0; length < snapshot.length; length++) {
      // Inside the entity list the count check fires first: the bytes left cannot hold the claimed entities.
      expect(messageOf(() => schema.decode(snapshot.subarray(0, length)))).toMatch(/truncated|claims 20 elements/);
    }
    const all = allTypesSchema;
    const body = all.encode(sampleAllTypes());
    for (let length = 0; length < body.length; length++) messageOf(() => all.decode(body.subarray(0, length)));
  });

  it('names the field and offset of a truncation', () => {
    const schema = defineSchema({ tick: FieldType.u32, at: struct({ x: FieldType.f32, y: FieldType.f32 }) });
    const body = schema.encode({ tick: 1, at: { x: 1, y: 2 } });
    const message = messageOf(() => schema.decode(body.subarray(0, 10)));
    expect(message).toMatch(/^cannot decode at at\.y: truncated: needs 4 byte\(s\) at offset 8, 2 left$/);
  });

  it('rejects trailing bytes', () => {
    expect(messageOf(() => one.u8.decode(bytes(1, 2)))).toMatch(/1 trailing byte/);
  });

  it('rejects bool and presence bytes other than 0 and 1', () => {
    expect(messageOf(() => one.bool.decode(bytes(2)))).toMatch(/at v: bool byte is 2/);
    expect(messageOf(() => one.maybe.decode(bytes(0xff, 1)))).toMatch(/at v: presence byte is 255/);
    expect(one.maybe.decode(bytes(1, 4))).toEqual({ v: { n: 4 } });
  });

  it('rejects NaN and infinities (they are never encoded)', () => {
    expect(messageOf(() => one.f32.decode(bytes(0, 0, 0xc0, 0x7f)))).toMatch(/at v: f32 is not finite/);
    expect(messageOf(() => one.f32.decode(bytes(0, 0, 0x80, 0xff)))).toMatch(/f32 is not finite/);
    expect(messageOf(() => one.f64.decode(bytes(0, 0, 0, 0, 0, 0, 0xf0, 0x7f)))).toMatch(/f64 is not finite/);
  });

  it('accepts only canonical varints of at most 5 bytes and 2^32-1', () => {
    expect(one.bytes.decode(bytes(0x80, 0x01, ...new Uint8Array(128))).v.length).toBe(128);
    expect(messageOf(() => one.bytes.decode(bytes(0x80, 0x00)))).toMatch(/redundant zero/);
    expect(messageOf(() => one.bytes.decode(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0x01)))).toMatch(/longer than 5/);
    expect(messageOf(() => one.bytes.decode(bytes(0xff, 0xff, 0xff, 0xff, 0x1f)))).toMatch(/exceeds 2\^32-1/);
    expect(messageOf(() => one.bytes.decode(bytes(0xff, 0xff, 0xff, 0xff, 0x0f)))).toMatch(/truncated/);
  });

  it('rejects invalid UTF-8 in short and long strings', () => {
    for (const bad of [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe6, 0x97]]) {
      expect(messageOf(() => one.string.decode(bytes(bad.length, ...bad)))).toMatch(/at v: string is not valid UTF-8/);
      const long = [...new Array(40).fill(0x61), ...bad];
      expect(messageOf(() => one.string.decode(bytes(long.length, ...long)))).toMatch(/not valid UTF-8/);
    }
  });

  it('checks a hostile array count against the bytes left before allocating', () => {
    const message = messageOf(() => one.list.decode(bytes(0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3)));
    expect(message).toMatch(/at v: array claims 4294967295 elements but only 3 bytes are left/);
    expect(messageOf(() => one.list.decode(bytes(4, 1, 2, 3)))).toMatch(/claims 4 elements/);
    expect(one.list.decode(bytes(3, 1, 2, 3))).toEqual({ v: [{ n: 1 }, { n: 2 }, { n: 3 }] });
  });

  it('checks string and bytes lengths against the bytes left', () => {
    expect(messageOf(() => one.string.decode(bytes(5, 0x61)))).toMatch(/at v: truncated: needs 5/);
    expect(messageOf(() => one.bytes.decode(bytes(0xff, 0xff, 0x03, 1)))).toMatch(/truncated: needs 65535/);
  });
});
