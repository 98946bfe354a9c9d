import type { ByteWriter } from './byteWriter';
import { utf8Length } from './byteWriter';
import { CodecFailure } from './codecFailure';
import { isRecord } from './encodeStruct';
import { Kind, type FieldPlan, type StructPlan } from './structPlan';

/** Writes one struct; a generated one throws a {@link CodecFailure} without a path (see compileCodec). */
export type StructWriter = (value: unknown, w: ByteWriter) => void;

const bad = (): CodecFailure => new CodecFailure('value does not fit the schema');

/** Checks and write for one field whose value is in `x`; `head` is the enclosing struct's fixed part. */
function fieldCode(field: FieldPlan, head: number, sub: () => string): string {
  const isNumber = "typeof x !== 'number'";
  switch (field.kind) {
    case Kind.u8:
      return `if (${isNumber} || (x & 0xff) !== x) throw bad(); w.u8(x);`;
    case Kind.u16:
      return `if (${isNumber} || (x & 0xffff) !== x) throw bad(); w.u16(x);`;
    case Kind.u32:
      return `if (${isNumber} || x >>> 0 !== x) throw bad(); w.u32(x);`;
    case Kind.i32:
      return `if (${isNumber} || (x | 0) !== x) throw bad(); w.i32(x);`;
    case Kind.f32:
      return `if (${isNumber}) throw bad(); const f = fround(x); if (f - f !== 0) throw bad(); w.f32(f);`;
    case Kind.f64:
      return `if (${isNumber} || x - x !== 0) throw bad(); w.f64(x);`;
    case Kind.bool:
      return 'if (x !== true && x !== false) throw bad(); w.u8(x ? 1 : 0);';
    case Kind.string:
      return `if (typeof x !== 'string') throw bad(); const n = utf8Length(x); if (n < 0) throw bad(); w.utf8(x, n); w.ensure(${head});`;
    case Kind.bytes:
      return `if (!(x instanceof Uint8Array)) throw bad(); w.raw(x); w.ensure(${head});`;
    case Kind.array:
      return `if (!isArray(x)) throw bad(); const n = x.length; w.varint(n); for (let i = 0; i < n; i++) ${sub()}(x[i], w); w.ensure(${head});`;
    case Kind.optional:
      return `if (x === undefined || x === null) { w.u8(0); } else { w.u8(1); ${sub()}(x, w); w.ensure(${head}); }`;
    case Kind.struct:
      return `${sub()}(x, w); w.ensure(${head});`;
  }
}

/**
 * Source of an encoder for `root`: one function per struct, reading properties by constant name so each load has
 * its own inline cache (a keyed load of a name held in data is several times slower, and dominated the interpreter).
 * The only text taken from the schema is field names, embedded as JSON string literals.
 */
export function encoderSource(root: StructPlan): string {
  const functions: string[] = [];
  let count = 0;
  const emit = (plan: StructPlan): string => {
    const name = `s${count++}`;
    const check = plan.tuple
      ? `if (!isArray(v) || v.length !== ${plan.fields.length}) throw bad();`
      : 'if (!isRecord(v)) throw bad();';
    const body = [check, `w.ensure(${plan.headBytes});`];
    for (const field of plan.fields) {
      const code = fieldCode(field, plan.headBytes, () => emit(field.sub!));
      body.push(`{ const x = v[${JSON.stringify(field.name)}]; ${code} }`);
    }
    functions.push(`function ${name}(v, w) {\n  ${body.join('\n  ')}\n}`);
    return name;
  };
  const rootName = emit(root);
  return `'use strict';\n${functions.join('\n')}\nreturn ${rootName};`;
}

/** A generated encoder for `plan`, or null where code generation is disabled (then the reference one is used). */
export function generateEncoder(plan: StructPlan): StructWriter | null {
  let factory: (...helpers: unknown[]) => StructWriter;
  try {
    factory = new Function('isRecord', 'isArray', 'fround', 'Uint8Array', 'utf8Length', 'bad', encoderSource(plan)) as (
      ...helpers: unknown[]
    ) => StructWriter;
  } catch {
    return null;
  }
  return factory(isRecord, Array.isArray, Math.fround, Uint8Array, utf8Length, bad);
}
