/**
 * Scalar field types of a binary schema. Wire forms: integers and floats little-endian at fixed width; `bool` one
 * byte (0 or 1); `string` a varint byte count then UTF-8; `bytes` a varint byte count then the raw bytes.
 */
export const FieldType = {
  u8: 'u8',
  u16: 'u16',
  u32: 'u32',
  i32: 'i32',
  f32: 'f32',
  f64: 'f64',
  bool: 'bool',
  string: 'string',
  bytes: 'bytes',
} as const;

/** One of the scalar {@link FieldType}s. */
export type ScalarType = (typeof FieldType)[keyof typeof FieldType];

/** A field list: field name → type, encoded in declaration order. */
export type Fields = { readonly [name: string]: FieldSpec };

/** A list of structs: varint count, then each element's fields. */
export interface ArrayField<F extends Fields = Fields> {
  readonly kind: 'array';
  readonly fields: F;
}

/** A struct that may be absent (`undefined` or `null`): one presence byte (0 or 1), then its fields if present. */
export interface OptionalField<F extends Fields = Fields> {
  readonly kind: 'optional';
  readonly fields: F;
}

/**
 * A list of tuples of scalars (`[[1, 0.5], …]`): varint count, then each element's values in order, exactly like an
 * array of structs with those fields, but read from and decoded to arrays, so a game's tuple wire form needs no
 * reshaping into objects and back.
 */
export interface TupleArrayField<T extends readonly ScalarType[] = readonly ScalarType[]> {
  readonly kind: 'array';
  readonly tuple: T;
  /** The same elements as fields `0`, `1`, … (what the compiler lays out). */
  readonly fields: Fields;
}

/** A nested struct that is always present: just its fields, no framing. */
export interface StructField<F extends Fields = Fields> {
  readonly kind: 'struct';
  readonly fields: F;
}

/** Any field a schema can hold. */
export type FieldSpec = ScalarType | ArrayField | TupleArrayField | OptionalField | StructField;

/** A field holding a list of structs with `fields` (they must have at least one field). */
export function arrayOf<F extends Fields>(fields: F): ArrayField<F> {
  return { kind: 'array', fields };
}

/** A field holding a list of tuples whose elements have the scalar `types`, in order (at least one). */
export function arrayOfTuples<const T extends readonly ScalarType[]>(...types: T): TupleArrayField<T> {
  return { kind: 'array', tuple: types, fields: Object.fromEntries(types.map((type, i) => [String(i), type])) };
}

/** A field holding a struct with `fields`, or nothing. */
export function optional<F extends Fields>(fields: F): OptionalField<F> {
  return { kind: 'optional', fields };
}

/** A field holding a struct with `fields`. */
export function struct<F extends Fields>(fields: F): StructField<F> {
  return { kind: 'struct', fields };
}

interface ScalarValues {
  u8: number;
  u16: number;
  u32: number;
  i32: number;
  f32: number;
  f64: number;
  bool: boolean;
  string: string;
  bytes: Uint8Array;
}

/** The TypeScript value of one field spec. */
export type InferField<S> = S extends ScalarType
  ? ScalarValues[S]
  : S extends TupleArrayField<infer T>
    ? { -readonly [K in keyof T]: T[K] extends ScalarType ? ScalarValues[T[K]] : never }[]
    : S extends ArrayField<infer F>
      ? Infer<F>[]
      : S extends OptionalField<infer F>
        ? Infer<F> | undefined | null
        : S extends StructField<infer F>
          ? Infer<F>
          : never;

type OptionalKeys<F extends Fields> = { [K in keyof F]: F[K] extends OptionalField ? K : never }[keyof F];

/** Flattens an intersection into one object type, so editors and type equality see plain objects. */
type Flatten<T> = { [K in keyof T]: T[K] };

/** The TypeScript value of a field list: optional structs become optional properties. */
export type Infer<F extends Fields> = Flatten<
  { -readonly [K in Exclude<keyof F, OptionalKeys<F>>]: InferField<F[K]> } & {
    -readonly [K in OptionalKeys<F>]?: InferField<F[K]>;
  }
>;
