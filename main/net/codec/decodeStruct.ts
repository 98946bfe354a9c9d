import type { ByteReader } from './byteReader';
import { CodecFailure } from './codecFailure';
import { Kind, type StructPlan } from './structPlan';

function finite(v: number, type: string): number {
  if (v - v !== 0) throw new CodecFailure(`${type} is not finite (NaN and ±Infinity are not carried)`);
  return v;
}

function flag(byte: number, what: string): boolean {
  if (byte > 1) throw new CodecFailure(`${what} byte is ${byte}, not 0 or 1`);
  return byte === 1;
}

/**
 * Reads one struct in plan order. Every read is bounds-checked by the reader, and only canonical forms are accepted
 * (bools and presence bytes 0/1, finite floats, shortest varints), so a body that decodes re-encodes to itself.
 */
export function decodeStruct(plan: StructPlan, r: ByteReader): Record<string, unknown> {
  // A tuple's fields are named 0, 1, …: set on an array they are its elements.
  const out = (plan.tuple ? [] : {}) as Record<string, unknown>;
  const fields = plan.fields;
  let i = 0;
  try {
    for (; i < fields.length; i++) {
      const field = fields[i]!;
      switch (field.kind) {
        case Kind.u8:
          out[field.name] = r.u8();
          break;
        case Kind.u16:
          out[field.name] = r.u16();
          break;
        case Kind.u32:
          out[field.name] = r.u32();
          break;
        case Kind.i32:
          out[field.name] = r.i32();
          break;
        case Kind.f32:
          out[field.name] = finite(r.f32(), 'f32');
          break;
        case Kind.f64:
          out[field.name] = finite(r.f64(), 'f64');
          break;
        case Kind.bool:
          out[field.name] = flag(r.u8(), 'bool');
          break;
        case Kind.string:
          out[field.name] = r.utf8(r.varint());
          break;
        case Kind.bytes:
          out[field.name] = r.raw(r.varint());
          break;
        case Kind.array:
          out[field.name] = decodeArray(field.sub!, r);
          break;
        case Kind.optional:
          // An absent struct leaves no key, as JSON would for an undefined property.
          if (flag(r.u8(), 'presence')) out[field.name] = decodeStruct(field.sub!, r);
          break;
        case Kind.struct:
          out[field.name] = decodeStruct(field.sub!, r);
          break;
      }
    }
  } catch (error) {
    if (error instanceof CodecFailure) error.path.push(fields[i]!.name);
    throw error;
  }
  return out;
}

function decodeArray(element: StructPlan, r: ByteReader): Record<string, unknown>[] {
  const count = r.varint();
  // Checked before allocating anything: a hostile count cannot ask for more elements than the bytes could hold.
  if (count * element.minBytes > r.remaining()) {
    throw new CodecFailure(`array claims ${count} elements but only ${r.remaining()} bytes are left`);
  }
  const items: Record<string, unknown>[] = [];
  let i = 0;
  try {
    for (; i < count; i++) items.push(decodeStruct(element, r));
  } catch (error) {
    if (error instanceof CodecFailure) error.path.push(`[${i}]`);
    throw error;
  }
  return items;
}
