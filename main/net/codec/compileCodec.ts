import { ByteReader } from './byteReader';
import type { ByteWriter } from './byteWriter';
import { CodecFailure } from './codecFailure';
import { decodeStruct } from './decodeStruct';
import { encodeStruct } from './encodeStruct';
import { generateDecoder } from './generateDecoder';
import { generateEncoder } from './generateEncoder';
import type { StructPlan } from './structPlan';

/** A plan's encoder and decoder; both throw {@link CodecFailure} naming the failing field's path. */
export interface CompiledCodec {
  /** Appends `value`'s encoding to `w`. */
  write(value: unknown, w: ByteWriter): void;
  /** Reads one struct that must fill `bytes` from `start` to the end. */
  read(bytes: Uint8Array, start: number): Record<string, unknown>;
  /** Whether generated code is in use (false: the reference interpreter, e.g. where code generation is disabled). */
  readonly generated: boolean;
}

function referenceRead(plan: StructPlan, bytes: Uint8Array, start: number): Record<string, unknown> {
  const reader = new ByteReader(bytes, start);
  const value = decodeStruct(plan, reader);
  if (reader.remaining() !== 0) throw new CodecFailure(`${reader.remaining()} trailing byte(s) after the message`);
  return value;
}

/**
 * Compiles `plan` once. Generated code runs every message; it carries no path bookkeeping, so on a failure the
 * reference interpreter re-runs the same input (deterministically failing at the same field) to name the path.
 */
export function compileCodec(plan: StructPlan, codegen = true): CompiledCodec {
  const writer = codegen ? generateEncoder(plan) : null;
  const reader = codegen ? generateDecoder(plan) : null;
  return {
    generated: writer !== null && reader !== null,
    write:
      writer === null
        ? (value, w) => encodeStruct(plan, value, w)
        : (value, w) => {
            const start = w.pos;
            try {
              writer(value, w);
            } catch (error) {
              if (!(error instanceof CodecFailure)) throw error;
              w.pos = start;
              encodeStruct(plan, value, w);
              throw error; // unreachable while both encoders agree
            }
          },
    read:
      reader === null
        ? (bytes, start) => referenceRead(plan, bytes, start)
        : (bytes, start) => {
            const r = new ByteReader(bytes, start);
            try {
              const value = reader(r);
              if (r.remaining() !== 0) throw new CodecFailure('trailing bytes');
              return value;
            } catch (error) {
              if (!(error instanceof CodecFailure)) throw error;
              referenceRead(plan, bytes, start);
              throw error; // unreachable while both decoders agree
            }
          },
  };
}
