import type { ByteReader } from './byteReader';
import { CodecFailure, within } from './codecFailure';
import { Kind, type FieldPlan, type StructPlan } from './structPlan';

/** Reads one struct; throws a {@link CodecFailure} naming the failing field's path. */
export type StructReader = (r: ByteReader) => Record<string, unknown>;

const notFinite = (type: string): CodecFailure =>
  new CodecFailure(`${type} is not finite (NaN and ±Infinity are not carried)`);
const notFlag = (what: string, byte: number): CodecFailure => new CodecFailure(`${what} byte is ${byte}, not 0 or 1`);
const overCount = (count: number, left: number): CodecFailure =>
  new CodecFailure(`array claims ${count} elements but only ${left} bytes are left`);

/**
 * Reads field `i` into `a<i>`. Every read is bounds-checked by the reader, and only canonical forms are accepted
 * (bools and presence bytes 0/1, finite floats, shortest varints), so a body that decodes re-encodes to itself.
 */
function fieldCode(field: FieldPlan, i: number, sub: () => string): string {
  const a = `a${i}`;
  switch (field.kind) {
    case Kind.u8:
      return `const ${a} = r.u8();`;
    case Kind.u16:
      return `const ${a} = r.u16();`;
    case Kind.u32:
      return `const ${a} = r.u32();`;
    case Kind.i32:
      return `const ${a} = r.i32();`;
    case Kind.f32:
      return `const ${a} = r.f32(); if (${a} - ${a} !== 0) throw notFinite('f32');`;
    case Kind.f64:
      return `const ${a} = r.f64(); if (${a} - ${a} !== 0) throw notFinite('f64');`;
    case Kind.bool:
      return `const b${i} = r.u8(); if (b${i} > 1) throw notFlag('bool', b${i}); const ${a} = b${i} === 1;`;
    case Kind.string:
      return `const ${a} = r.utf8(r.varint());`;
    case Kind.bytes:
      return `const ${a} = r.raw(r.varint());`;
    case Kind.array:
      // The count is checked against the bytes left before anything is allocated.
      return (
        `const c${i} = r.varint(); if (c${i} * ${field.sub!.minBytes} > r.remaining()) throw overCount(c${i}, r.remaining()); ` +
        `const ${a} = []; let j${i} = 0; ` +
        `try { for (; j${i} < c${i}; j${i}++) ${a}.push(${sub()}(r)); } catch (e) { throw within(e, '[' + j${i} + ']'); }`
      );
    case Kind.optional:
      return (
        `const b${i} = r.u8(); if (b${i} > 1) throw notFlag('presence', b${i}); ` +
        `const ${a} = b${i} === 1 ? ${sub()}(r) : undefined;`
      );
    case Kind.struct:
      return `const ${a} = ${sub()}(r);`;
  }
}

/** The statements that build the result: one literal (a fixed shape) unless absent optionals must leave keys out. */
function resultCode(plan: StructPlan): string {
  const key = (field: FieldPlan): string => JSON.stringify(field.name);
  if (plan.tuple) return `return [${plan.fields.map((_, i) => `a${i}`).join(', ')}];`;
  if (!plan.fields.some((field) => field.kind === Kind.optional)) {
    return `return { ${plan.fields.map((field, i) => `${key(field)}: a${i}`).join(', ')} };`;
  }
  // An absent struct leaves no key, as JSON would for an undefined property.
  const assignments = plan.fields.map((field, i) =>
    field.kind === Kind.optional ? `if (a${i} !== undefined) o[${key(field)}] = a${i};` : `o[${key(field)}] = a${i};`,
  );
  return `const o = {}; ${assignments.join(' ')} return o;`;
}

/**
 * Source of a decoder for `root`, one function per struct; `f` counts the fields read so a failure names its
 * field. Schema text appears only as JSON string literals.
 */
export function decoderSource(root: StructPlan): string {
  const functions: string[] = [];
  let count = 0;
  const emit = (plan: StructPlan): string => {
    const name = `d${count++}`;
    const body = plan.fields.map((field, i) => `f = ${i}; ${fieldCode(field, i, () => emit(field.sub!))}`);
    body.push(resultCode(plan));
    const names = JSON.stringify(plan.fields.map((field) => field.name));
    functions.push(
      `const ${name}Names = ${names};\n` +
        `function ${name}(r) {\n  let f = 0;\n  try {\n    ${body.join('\n    ')}\n` +
        `  } catch (e) { throw within(e, ${name}Names[f]); }\n}`,
    );
    return name;
  };
  const rootName = emit(root);
  return `'use strict';\n${functions.join('\n')}\nreturn ${rootName};`;
}

/** The generated decoder for `plan`. */
export function generateDecoder(plan: StructPlan): StructReader {
  const helpers = { notFinite, notFlag, overCount, within };
  const factory = new Function(...Object.keys(helpers), decoderSource(plan)) as (...args: unknown[]) => StructReader;
  return factory(...Object.values(helpers));
}
