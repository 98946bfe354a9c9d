import { toSerializationError } from './codecFailure';
import { compileCodec, type CompiledCodec } from './compileCodec';
import type { Fields, Infer } from '../../../shared/codec/fieldTypes';
import { compileStruct, type StructPlan } from './structPlan';
import { WriterSlot } from './writerSlot';

/** A compiled message layout: encodes values of its fields to bytes and back. */
export interface Schema<F extends Fields = Fields> {
  readonly fields: F;
  /** The compiled field list (what the code is generated from). */
  readonly plan: StructPlan;
  /** The compiled encoder/decoder, for serializers that frame the payload themselves. */
  readonly codec: CompiledCodec;
  /** An exact-length copy of `value`'s encoding; throws SerializationError naming the field that does not fit. */
  encode(value: Infer<F>): Uint8Array;
  /** The value in `bytes`, which must hold exactly one encoding; throws SerializationError on anything else. */
  decode(bytes: Uint8Array): Infer<F>;
}

/** The value type of a schema. */
export type SchemaValue<S> = S extends Schema<infer F> ? Infer<F> : never;

/** Compiles `fields` once (throws TypeError for a malformed schema) into a reusable {@link Schema}. */
export function defineSchema<const F extends Fields>(fields: F): Schema<F> {
  const plan = compileStruct(fields);
  const codec = compileCodec(plan);
  const slot = new WriterSlot();
  return {
    fields,
    plan,
    codec,
    encode(value) {
      const writer = slot.acquire();
      try {
        codec.write(value, writer);
        return writer.finish();
      } catch (error) {
        throw toSerializationError(error, 'cannot encode');
      } finally {
        slot.release(writer);
      }
    },
    decode(bytes) {
      try {
        return codec.read(bytes, 0) as Infer<F>;
      } catch (error) {
        throw toSerializationError(error, 'cannot decode');
      }
    },
  };
}
