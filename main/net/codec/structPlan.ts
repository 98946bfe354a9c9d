import type { FieldSpec, Fields } from '../../../shared/codec/fieldTypes';

/** Numeric field kinds the encoder and decoder switch on (one switch, so every call site stays monomorphic). */
export const Kind = {
  u8: 0,
  u16: 1,
  u32: 2,
  i32: 3,
  f32: 4,
  f64: 5,
  bool: 6,
  string: 7,
  bytes: 8,
  array: 9,
  optional: 10,
  struct: 11,
} as const;

/** One of the {@link Kind} codes. */
export type KindCode = (typeof Kind)[keyof typeof Kind];

/** Bytes a field needs before any variable-length content: what the encoder reserves up front. */
const HEAD_BYTES = [1, 2, 4, 4, 4, 8, 1, 0, 0, 5, 1, 0] as const;

/** Smallest encoding of a field: used to bound a hostile array count by the bytes left. */
const MIN_BYTES = [1, 2, 4, 4, 4, 8, 1, 1, 1, 1, 1, 0] as const;

/** One compiled field; every plan object has this same shape. */
export interface FieldPlan {
  readonly name: string;
  readonly kind: KindCode;
  /** The nested struct of array, optional and struct fields; null for scalars. */
  readonly sub: StructPlan | null;
}

/** A compiled field list. */
export interface StructPlan {
  readonly fields: readonly FieldPlan[];
  /** Sum of the fields' fixed heads: reserved once per struct so fixed-width writes skip capacity checks. */
  readonly headBytes: number;
  /** Fewest bytes any encoding of this struct takes. */
  readonly minBytes: number;
  /** Values are arrays of exactly `fields.length` elements (fields `0`, `1`, …), not objects: arrayOfTuples. */
  readonly tuple: boolean;
}

/** Scalar type name → kind; a null-prototype map so names like "toString" are not types. */
const SCALAR_KINDS: Readonly<Record<string, KindCode>> = Object.assign(Object.create(null) as object, {
  u8: Kind.u8,
  u16: Kind.u16,
  u32: Kind.u32,
  i32: Kind.i32,
  f32: Kind.f32,
  f64: Kind.f64,
  bool: Kind.bool,
  string: Kind.string,
  bytes: Kind.bytes,
});

function kindOf(spec: FieldSpec, path: string): KindCode {
  if (typeof spec === 'string') {
    const kind = SCALAR_KINDS[spec];
    if (kind !== undefined) return kind;
  } else if (spec !== null && typeof spec === 'object') {
    if (spec.kind === 'array' || spec.kind === 'optional' || spec.kind === 'struct') return Kind[spec.kind];
  }
  throw new TypeError(`schema field ${path} has an unknown type`);
}

/** Compiles a field list once; throws TypeError for a malformed schema (a programming error, not bad input). */
export function compileStruct(fields: Fields, path = '', tuple = false): StructPlan {
  const plans: FieldPlan[] = [];
  let headBytes = 0;
  let minBytes = 0;
  for (const name of Object.keys(fields)) {
    const spec = fields[name] as FieldSpec;
    const fieldPath = path === '' ? name : `${path}.${name}`;
    // Assigning or reading `__proto__` touches the prototype, not a property.
    if (name === '__proto__') throw new TypeError(`schema field ${fieldPath} cannot be named __proto__`);
    const kind = kindOf(spec, fieldPath);
    let sub: StructPlan | null = null;
    if (typeof spec === 'object') {
      const isTuple = 'tuple' in spec;
      if (isTuple && !spec.tuple.every((type, i) => typeof type === 'string' && spec.fields[String(i)] === type)) {
        throw new TypeError(`schema field ${fieldPath}: tuple elements must be scalars (use arrayOfTuples)`);
      }
      sub = compileStruct(spec.fields, fieldPath, isTuple);
      // A zero-byte element would let a tiny body claim billions of elements.
      if (spec.kind === 'array' && sub.minBytes === 0) {
        throw new TypeError(`schema field ${fieldPath}: array elements need at least one field`);
      }
    }
    plans.push({ name, kind, sub });
    headBytes += HEAD_BYTES[kind];
    minBytes += kind === Kind.struct ? (sub as StructPlan).minBytes : MIN_BYTES[kind];
  }
  return { fields: plans, headBytes, minBytes, tuple };
}
