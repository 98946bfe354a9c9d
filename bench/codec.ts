import { pack, Packr, unpack, Unpackr } from 'msgpackr';
import { binarySerializer, defineSchema } from '../main/net/codec';
import { compactJsonSerializer, jsonSerializer } from '../main/net/v1/serialization';
import { entitySnapshot, entitySnapshotSchema } from '../tests/support/entitySnapshot';
import type { BenchResult } from './benchResult';

const WARMUP_MS = 150;
/** Measured windows per contender; the median is reported, so a stall of the machine in one does not decide it. */
const WINDOWS = 5;
const WINDOW_MS = 150;
const BATCH = 200;

/** One contender: a body for the snapshot, and a way back from it. */
interface Codec {
  name: string;
  encode(payload: unknown): Uint8Array;
  decode(body: Uint8Array): unknown;
}

/** Calls/s of `fn`: the median of {@link WINDOWS} short windows, after a warm-up so the optimising compiler has run. */
function rate(fn: () => unknown): number {
  let sink = 0;
  const run = (ms: number): number => {
    let calls = 0;
    const start = performance.now();
    let now = start;
    while (now - start < ms) {
      for (let i = 0; i < BATCH; i++) sink += fn() === undefined ? 0 : 1;
      calls += BATCH;
      now = performance.now();
    }
    return calls / ((now - start) / 1000);
  };
  run(WARMUP_MS);
  const rates = Array.from({ length: WINDOWS }, () => run(WINDOW_MS)).sort((a, b) => a - b);
  if (sink < 0) console.log(sink); // keeps the results observable
  return rates[WINDOWS >> 1]!;
}

function contenders(): Codec[] {
  const ours = binarySerializer({ schemas: { snapshot: entitySnapshotSchema }, name: 'bench-v1' });
  // The same schema without generated code: what a generic loop over the field list achieves.
  const interpreted = defineSchema(entitySnapshotSchema.fields, { codegen: false });
  const oursInterpreted = binarySerializer({ schemas: { snapshot: interpreted }, name: 'bench-v1' });
  const records = new Packr({ useRecords: true });
  const recordReader = new Unpackr({ useRecords: true });
  return [
    {
      name: 'JSON (reference)',
      encode: (p) => jsonSerializer.serialize('snapshot', p),
      decode: jsonSerializer.deserialize,
    },
    {
      name: 'JSON (compact)',
      encode: (p) => compactJsonSerializer.serialize('snapshot', p),
      decode: compactJsonSerializer.deserialize,
    },
    { name: 'msgpackr pack', encode: (p) => pack({ type: 'snapshot', payload: p }), decode: (b) => unpack(b) },
    {
      name: 'msgpackr Packr({useRecords:true})',
      encode: (p) => records.pack({ type: 'snapshot', payload: p }),
      decode: (b) => recordReader.unpack(b),
    },
    { name: 'binary schema (ours)', encode: (p) => ours.serialize('snapshot', p), decode: ours.deserialize },
    {
      name: 'binary schema, interpreter only (ours)',
      encode: (p) => oursInterpreted.serialize('snapshot', p),
      decode: oursInterpreted.deserialize,
    },
  ];
}

/**
 * The 20-entity snapshot through each codec: encodes/s, decodes/s and body bytes, each against the reference
 * JSON serializer measured in the same run. Every codec carries the message type, as a transport body must.
 */
export async function codecBench(): Promise<BenchResult[]> {
  const payload = entitySnapshot();
  const measured = contenders().map((codec) => {
    const body = codec.encode(payload);
    return {
      name: codec.name,
      bytes: body.byteLength,
      encodes: rate(() => codec.encode(payload)),
      decodes: rate(() => codec.decode(body)),
    };
  });
  const json = measured[0]!;
  return measured.flatMap((m) => [
    { name: `encode, ${m.name}`, value: m.encodes, unit: 'encodes/s', baseline: json.encodes, higherIsBetter: true },
    { name: `decode, ${m.name}`, value: m.decodes, unit: 'decodes/s', baseline: json.decodes, higherIsBetter: true },
    { name: `body size, ${m.name}`, value: m.bytes, unit: 'bytes', baseline: json.bytes, higherIsBetter: false },
  ]);
}
