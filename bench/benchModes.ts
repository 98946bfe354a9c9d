import type { EndpointOptions, Serializer } from '../main/net/index';
import { codec, compactJsonSerializer, jsonSerializer } from '../main/net/index';

/** The transport configurations the two-process benchmark compares. */
export const BENCH_MODES = ['v1', 'native', 'native+binary'] as const;

/** One of {@link BENCH_MODES}. */
export type BenchMode = (typeof BENCH_MODES)[number];

const textSchema = codec.defineSchema({ text: codec.FieldType.string });
const binary = codec.binarySerializer({ name: 'bench-v1', schemas: { sink: textSchema, echo: textSchema } });

/** Endpoint options for a mode; both processes build theirs from this, so they agree. */
export function benchEndpointOptions(mode: BenchMode): EndpointOptions {
  if (mode === 'v1') return { native: false };
  return mode === 'native' ? {} : { native: { serializer: binary } };
}

/** The body codec a mode's messages travel in. */
function bodySerializer(mode: BenchMode): Serializer {
  if (mode === 'v1') return jsonSerializer;
  return mode === 'native' ? compactJsonSerializer : binary;
}

/** A `{text}` payload whose body is exactly `size` bytes in this mode's codec ("100-byte messages"). */
export function payloadOfSize(mode: BenchMode, size: number): { text: string } {
  const serializer = bodySerializer(mode);
  for (let n = size; n >= 0; n--) {
    const payload = { text: 'x'.repeat(n) };
    if (serializer.serialize('sink', payload).byteLength <= size) return payload;
  }
  throw new RangeError(`no payload fits ${size} bytes`);
}
