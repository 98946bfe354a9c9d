import type { ByteReader } from './byteReader';
import { CodecFailure } from './codecFailure';
import { Kind, type FieldPlan, type StructPlan } from './structPlan';

/** Reads one struct; a generated one throws a {@link CodecFailure} without a path (see compileCodec). */
export type StructReader = (r: ByteReader) => Record<string, unknown>;

const bad = (): CodecFailure => new CodecFailure('body does not fit the schema');

/** Reads field `i` into `a<i>` with the same checks as the reference decoder. */
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
      return `const ${a} = r.f32(); if (${a} - ${a} !== 0) throw bad();`;
    case Kind.f64:
      return `const ${a} = r.f64(); if (${a} - ${a} !== 0) throw bad();`;
    case Kind.bool:
      return `const b${i} = r.u8(); if (b${i} > 1) throw bad(); const ${a} = b${i} === 1;`;
    case Kind.string:
      return `const ${a} = r.utf8(r.varint());`;
    case Kind.bytes:
      return `const ${a} = r.raw(r.varint());`;
    case Kind.array:
      // The count is checked against the bytes left before anything is allocated.
      return (
        `const c${i} = r.varint(); if (c${i} * ${field.sub!.minBytes} > r.remaining()) throw bad(); ` +
        `const ${a} = []; for (let j = 0; j < c${i}; j++) ${a}.push(${sub()}(r));`
      );
    case Kind.optional:
      return `const b${i} = r.u8(); if (b${i} > 1) throw bad(); const ${a} = b${i} === 1 ? ${sub()}(r) : undefined;`;
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
  const assignments = plan.fields.map((field, i) =>
    field.kind === Kind.optional ? `if (a${i} !== undefined) o[${key(field)}] = a${i};` : `o[${key(field)}] = a${i};`,
  );
  return `const o = {}; ${assignments.join(' ')} return o;`;
}

/** Source of a decoder for `root`, one function per struct; schema text appears only as JSON string literals. */
export function decoderSource(root: StructPlan): string {
  const functions: string[] = [];
  let count = 0;
  const emit = (plan: StructPlan): string => {
    const name = `d${count++}`;
    const body = plan.fields.map((field, i) => fieldCode(field, i, () => emit(field.sub!)));
    body.push(resultCode(plan));
    functions.push(`function ${name}(r) {\n  ${body.join('\n  ')}\n}`);
    return name;
  };
  const rootName = emit(root);
  return `'use strict';\n${functions.join('\n')}\nreturn ${rootName};`;
}

/** A generated decoder for `plan`, or null where code generation is disabled (then the reference one is used). */
export function generateDecoder(plan: StructPlan): StructReader | null {
  let factory: (helper: unknown) => StructReader;
  try {
    factory = new Function('bad', decoderSource(plan)) as (helper: unknown) => StructReader;
  } catch {
    return null;
  }
  return factory(bad);
}
