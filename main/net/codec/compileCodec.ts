import { ByteReader } from './byteReader';
import type { ByteWriter } from './byteWriter';
import { CodecFailure } from './codecFailure';
import { generateDecoder } from './generateDecoder';
import { generateEncoder } from './generateEncoder';
import type { StructPlan } from './structPlan';

/** A plan's encoder and decoder; both throw {@link CodecFailure} naming the failing field's path. */
export interface CompiledCodec {
  /** Appends `value`'s encoding to `w`. */
  write(value: unknown, w: ByteWriter): void;
  /** Reads one struct that must fill `bytes` from `start` to the end. */
  read(bytes: Uint8Array, start: number): Record<string, unknown>;
}

/**
 * Compiles `plan` once into generated code (`new Function`, main process only: the renderer never loads the codec,
 * so its CSP, which forbids eval, does not apply). Throws where code generation from strings is disabled.
 */
export function compileCodec(plan: StructPlan): CompiledCodec {
  const decode = generateDecoder(plan);
  return {
    write: generateEncoder(plan),
    read(bytes, start) {
      const r = new ByteReader(bytes, start);
      const value = decode(r);
      if (r.remaining() !== 0) throw new CodecFailure(`${r.remaining()} trailing byte(s) after the message`);
      return value;
    },
  };
}
