import { arrayOf, defineSchema, FieldType, optional, struct, type Infer } from '../../../../main/net/codec';

/** Every field type once, with nesting: the schema most codec tests exercise. */
export const allTypesFields = {
  a: FieldType.u8,
  b: FieldType.u16,
  c: FieldType.u32,
  d: FieldType.i32,
  e: FieldType.f32,
  f: FieldType.f64,
  g: FieldType.bool,
  h: FieldType.string,
  i: FieldType.bytes,
  list: arrayOf({ n: FieldType.u8, s: FieldType.string }),
  maybe: optional({ x: FieldType.i32, inner: optional({ y: FieldType.u8 }) }),
  nested: struct({ flag: FieldType.bool, data: FieldType.bytes }),
} as const;

/** A value of {@link allTypesFields}. */
export type AllTypes = Infer<typeof allTypesFields>;

/** The schema of {@link allTypesFields}. */
export const allTypesSchema = defineSchema(allTypesFields);

/** A valid value with small, exactly representable numbers. */
export function sampleAllTypes(): AllTypes {
  return {
    a: 7,
    b: 300,
    c: 70_000,
    d: -5,
    e: 1.5,
    f: Math.PI,
    g: true,
    h: 'héllo',
    i: new Uint8Array([1, 2, 3]),
    list: [
      { n: 1, s: 'one' },
      { n: 2, s: '' },
    ],
    maybe: { x: -1, inner: { y: 9 } },
    nested: { flag: false, data: new Uint8Array(0) },
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

function randomString(random: () => number): string {
  const pieces = ['a', 'Z', ' ', '~', 'é', '日', '🎮', '\0', '\ufeff'];
  return Array.from({ length: Math.floor(random() * 40) }, () => pick(random, pieces)).join('');
}

function randomBytes(random: () => number): Uint8Array {
  return Uint8Array.from({ length: Math.floor(random() * 12) }, () => Math.floor(random() * 256));
}

/** A random valid value (floats already representable as f32 where the field is f32, so round trips are exact). */
export function randomAllTypes(random: () => number): AllTypes {
  const maybe =
    random() < 0.5 ? undefined : { x: (random() * 2 ** 32) | 0, inner: random() < 0.5 ? undefined : { y: 3 } };
  return {
    a: Math.floor(random() * 256),
    b: Math.floor(random() * 65536),
    c: Math.floor(random() * 2 ** 32),
    d: (random() * 2 ** 32) | 0,
    e: Math.fround((random() - 0.5) * 1e6),
    f: (random() - 0.5) * 1e300,
    g: random() < 0.5,
    h: randomString(random),
    i: randomBytes(random),
    list: Array.from({ length: Math.floor(random() * 4) }, () => ({
      n: Math.floor(random() * 256),
      s: randomString(random),
    })),
    ...(maybe === undefined ? {} : { maybe }),
    nested: { flag: random() < 0.5, data: randomBytes(random) },
  };
}
