import type { ByteWriter } from './byteWriter';
import { utf8Length } from './byteWriter';
import { CodecFailure, describeValue } from './codecFailure';
import { Kind, type StructPlan } from './structPlan';

function mismatch(expected: string, value: unknown): CodecFailure {
  return new CodecFailure(`expected ${expected}, got ${describeValue(value)}`);
}

/** What a struct value must be: a non-null object that is not an array or bytes. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/**
 * The reference encoder: walks the plan, checking each field against its type and naming the failing field's path.
 * Properties not in the schema are ignored. Generated encoders must behave exactly like it (tests compare them).
 */
export function encodeStruct(plan: StructPlan, value: unknown, w: ByteWriter): void {
  if (plan.tuple) {
    if (!Array.isArray(value) || value.length !== plan.fields.length) {
      throw mismatch(`a tuple of ${plan.fields.length}`, value);
    }
  } else if (!isRecord(value)) throw mismatch('an object', value);
  const fields = plan.fields;
  w.ensure(plan.headBytes);
  let i = 0;
  try {
    for (; i < fields.length; i++) {
      const field = fields[i]!;
      const v = (value as Record<string, unknown>)[field.name];
      switch (field.kind) {
        case Kind.u8:
          if (typeof v !== 'number' || (v & 0xff) !== v) throw mismatch('u8 (integer 0..255)', v);
          w.u8(v);
          break;
        case Kind.u16:
          if (typeof v !== 'number' || (v & 0xffff) !== v) throw mismatch('u16 (integer 0..65535)', v);
          w.u16(v);
          break;
        case Kind.u32:
          if (typeof v !== 'number' || v >>> 0 !== v) throw mismatch('u32 (integer 0..4294967295)', v);
          w.u32(v);
          break;
        case Kind.i32:
          if (typeof v !== 'number' || (v | 0) !== v) throw mismatch('i32 (integer -2147483648..2147483647)', v);
          w.i32(v);
          break;
        case Kind.f32: {
          if (typeof v !== 'number') throw mismatch('f32 (finite number)', v);
          const rounded = Math.fround(v);
          if (rounded - rounded !== 0) throw mismatch('f32 (finite number within ±3.4e38)', v);
          w.f32(rounded);
          break;
        }
        case Kind.f64:
          if (typeof v !== 'number' || v - v !== 0) throw mismatch('f64 (finite number)', v);
          w.f64(v);
          break;
        case Kind.bool:
          if (v !== true && v !== false) throw mismatch('bool', v);
          w.u8(v ? 1 : 0);
          break;
        case Kind.string: {
          if (typeof v !== 'string') throw mismatch('string', v);
          const length = utf8Length(v);
          if (length < 0) throw new CodecFailure('string holds a lone surrogate (not encodable as UTF-8)');
          w.utf8(v, length);
          w.ensure(plan.headBytes);
          break;
        }
        case Kind.bytes:
          if (!(v instanceof Uint8Array)) throw mismatch('bytes (Uint8Array)', v);
          w.raw(v);
          w.ensure(plan.headBytes);
          break;
        case Kind.array:
          if (!Array.isArray(v)) throw mismatch('an array', v);
          encodeArray(field.sub!, v, w);
          w.ensure(plan.headBytes);
          break;
        case Kind.optional:
          if (v === undefined || v === null) {
            w.u8(0);
          } else {
            w.u8(1);
            encodeStruct(field.sub!, v, w);
            w.ensure(plan.headBytes);
          }
          break;
        case Kind.struct:
          encodeStruct(field.sub!, v, w);
          w.ensure(plan.headBytes);
          break;
      }
    }
  } catch (error) {
    if (error instanceof CodecFailure) error.path.push(fields[i]!.name);
    throw error;
  }
}

function encodeArray(element: StructPlan, items: readonly unknown[], w: ByteWriter): void {
  const n = items.length;
  w.varint(n);
  let i = 0;
  try {
    for (; i < n; i++) encodeStruct(element, items[i], w);
  } catch (error) {
    if (error instanceof CodecFailure) error.path.push(`[${i}]`);
    throw error;
  }
}
