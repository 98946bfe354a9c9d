import { pack, Packr, unpack, Unpackr } from 'msgpackr';
import { binarySerializer } from '../main/net/codec';
import { compactJsonSerializer, jsonSerializer } from '../main/net/v1/serialization';
import { entitySnapshot, entitySnapshotSchema } from '../tests/support/entitySnapshot';
import type { BenchResult } from './benchResult';
import { rotated, roundsRow } from './rounds';

const WARMUP_MS = 150;
/** Rounds of one window per contender; the median of per-round ratios is reported. */
const WINDOWS = 5;
const WINDOW_MS = 150;
const BATCH = 200;

/** One contender: a body for the snapshot, and a way back from it. */
interface Codec {
  name: string;
  encode(payload: unknown): Uint8Array;
  decode(body: Uint8Array): unknown;
}

let sink = 0;

/** Calls/s of `fn` over one window of `ms`. */
function window(fn: () => unknown, ms: number): number {
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < BATCH; i++) sink += fn() === undefined ? 0 : 1;
    calls += BATCH;
    now = performance.now();
  }
  return calls / ((now - start) / 1000);
}

/**
 * Calls/s of each of `fns` in each of {@link WINDOWS} rounds, after a warm-up of each so the optimising compiler has
 * run; in every round each runs one window, in rotated order, so a stall of the machine falls on one round of all.
 */
function rates(fns: (() => unknown)[]): number[][] {
  for (const fn of fns) window(fn, WARMUP_MS);
  const out = fns.map(() => [] as number[]);
  for (let round = 0; round < WINDOWS; round++) {
    for (const i of rotated([...fns.keys()], round)) out[i]!.push(window(fns[i]!, WINDOW_MS));
  }
  if (sink < 0) console.log(sink); // keeps the results observable
  return out;
}

function contenders(): Codec[] {
  const ours = binarySerializer({ schemas: { snapshot: entitySnapshotSchema }, name: 'bench-v1' });
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
  ];
}

/**
 * The 20-entity snapshot through each codec: encodes/s, decodes/s and body bytes, each against the reference
 * JSON serializer measured in the same run. Every codec carries the message type, as a transport body must.
 */
export async function codecBench(): Promise<BenchResult[]> {
  const payload = entitySnapshot();
  const codecs = contenders();
  const bodies = codecs.map((codec) => codec.encode(payload));
  const encodes = rates(codecs.map((codec) => () => codec.encode(payload)));
  const decodes = rates(codecs.map((codec, i) => () => codec.decode(bodies[i]!)));
  const row = (name: string, unit: string, value: number[], baseline: number[]) =>
    roundsRow(name, unit, value, baseline, true);
  return codecs.flatMap((codec, i) => [
    row(`encode, ${codec.name}`, 'encodes/s', encodes[i]!, encodes[0]!),
    row(`decode, ${codec.name}`, 'decodes/s', decodes[i]!, decodes[0]!),
    {
      name: `body size, ${codec.name}`,
      value: bodies[i]!.byteLength,
      unit: 'bytes',
      baseline: bodies[0]!.byteLength,
      higherIsBetter: false,
    },
  ]);
}
