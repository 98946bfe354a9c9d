import type { EndpointOptions, Serializer } from '../main/net/index';
import { codec, compactJsonSerializer, jsonSerializer } from '../main/net/index';

/** The transport configurations the two-process benchmark compares (native+bytes: a schema of one byte-array field). */
export const BENCH_MODES = ['v1', 'native', 'native+binary', 'native+bytes'] as const;

/** One of {@link BENCH_MODES}. */
export type BenchMode = (typeof BENCH_MODES)[number];

const textSchema = codec.defineSchema({ text: codec.FieldType.string });
const binary = codec.binarySerializer({ name: 'bench-v1', schemas: { sink: textSchema, echo: textSchema } });
const bytesSchema = codec.defineSchema({ data: codec.FieldType.bytes });
const bytes = codec.binarySerializer({ name: 'bench-bytes', schemas: { sink: bytesSchema, echo: bytesSchema } });

/** Endpoint options for a mode; both processes build theirs from this, so they agree. */
export function benchEndpointOptions(mode: BenchMode): EndpointOptions {
  if (mode === 'v1') return { native: false };
  if (mode === 'native+bytes') return { native: { serializer: bytes } };
  return mode === 'native' ? {} : { native: { serializer: binary } };
}

/** The body codec a mode's messages travel in. */
function bodySerializer(mode: BenchMode): Serializer {
  if (mode === 'v1') return jsonSerializer;
  if (mode === 'native+bytes') return bytes;
  return mode === 'native' ? compactJsonSerializer : binary;
}

/**
 * A payload whose body is at most `size` bytes in this mode's codec ("100-byte messages"): text for the JSON
 * modes and the text schema, an opaque blob for the bytes schema (what the raw dgram baseline sends).
 */
export function payloadOfSize(mode: BenchMode, size: number): Record<string, unknown> {
  const serializer = bodySerializer(mode);
  for (let n = size; n >= 0; n--) {
    const payload = mode === 'native+bytes' ? { data: new Uint8Array(n).fill(0x78) } : { text: 'x'.repeat(n) };
    if (serializer.serialize('sink', payload).byteLength <= size) return payload;
  }
  throw new RangeError(`no payload fits ${size} bytes`);
}
