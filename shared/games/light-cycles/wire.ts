import { arrayOf, arrayOfTuples, FieldType, optional } from '../../codec/fieldTypes';
import { ownKeyCount } from '../../codec/ownKeyCount';
import { quantize } from '../../codec/quantize';
import type { WireFormat } from '../../codec/wireFormat';
import type { BinaryGameWire } from '../../game/gameTypes';

/** The wire's own precision; a value these scales do not hold exactly travels as JSON instead. */
const SCALE = { clock: 1000, tenths: 10 } as const;
const PHASES = ['waiting', 'playing', 'ended'] as const;
const U32 = 2 ** 32 - 1;
const whole = (value: unknown, min: number, max: number) => quantize(value, 1, min, max);

/** `game.input`: `{ g, d, i: [[sequence, turn]…] }` with its tuples as they are. 12 bytes + 8 per input. */
const inputFields = {
  g: FieldType.u16,
  d: FieldType.f64,
  i: arrayOfTuples(FieldType.u32, FieldType.i32),
} as const;

const isTurn = (value: unknown): boolean => value === -1 || value === 0 || value === 1 || value === 2 || value === 3;

/** The payload itself when the schema carries it exactly (checks only, no copy), else undefined (JSON carries it). */
function inputToStruct(payload: unknown): object | undefined {
  if (typeof payload !== 'object' || payload === null || ownKeyCount(payload) !== 3) return undefined;
  const { g, d, i } = payload as Record<string, unknown>;
  if (whole(g, 0, 0xffff) === undefined || typeof d !== 'number' || !Number.isFinite(d) || !Array.isArray(i)) {
    return undefined;
  }
  for (const tuple of i as unknown[]) {
    if (!Array.isArray(tuple) || tuple.length !== 2) return undefined;
    if (whole(tuple[0], 0, U32) === undefined || !isTurn(tuple[1])) return undefined;
  }
  // JSON turns -0 into 0, and the receiver must see what JSON would have delivered.
  return Object.is(d, -0) ? { g, d: 0, i } : payload;
}

/** The decoded payload as it is, once every turn is one a sender could have encoded. */
function inputFromStruct(value: Record<string, unknown>): Record<string, unknown> {
  for (const tuple of value.i as number[][]) if (!isTurn(tuple[1])) throw new RangeError(`turn ${tuple[1]}`);
  return value;
}

/** `game.snapshot`: every number a whole (scaled) number, the phase an index, ack + 1; ~20 bytes per cycle. */
const snapshotFields = {
  g: FieldType.u16,
  k: FieldType.u32,
  t: FieldType.u32,
  ph: FieldType.u8,
  r: FieldType.u32,
  c: optional({ v: FieldType.u32 }),
  m: FieldType.u8,
  p: arrayOf({
    id: FieldType.string,
    x: FieldType.u8,
    y: FieldType.u8,
    h: FieldType.u8,
    f: FieldType.u8,
    s: FieldType.u32,
    n: FieldType.u32,
    a: FieldType.u32,
    q: FieldType.u8,
    cn: FieldType.u16,
    cs: arrayOf({ x: FieldType.u8, y: FieldType.u8 }),
  }),
} as const;

interface CycleStruct {
  id: string;
  x: number;
  y: number;
  h: number;
  f: number;
  s: number;
  n: number;
  a: number;
  q: number;
  cn: number;
  cs: { x: number; y: number }[];
}

interface SnapshotStruct {
  g: number;
  k: number;
  t: number;
  ph: number;
  r: number;
  c?: { v: number };
  m: number;
  p: CycleStruct[];
}

function cycleToStruct(value: unknown): CycleStruct | undefined {
  if (!Array.isArray(value) || value.length !== 11) return undefined;
  const [id, x, y, h, f, s, n, a, q, cn, recent] = value as unknown[];
  if (typeof id !== 'string' || !Array.isArray(recent) || recent.length % 2 !== 0) return undefined;
  const struct = {
    id,
    x: whole(x, 0, 255),
    y: whole(y, 0, 255),
    h: whole(h, 0, 255),
    f: whole(f, 0, 255),
    s: quantize(s, SCALE.tenths, 0, U32),
    n: whole(n, 0, U32),
    a: whole(a, -1, U32 - 1),
    q: whole(q, 0, 255),
    cn: whole(cn, 0, 0xffff),
  };
  if (Object.values(struct).some((v) => v === undefined)) return undefined;
  const cs: CycleStruct['cs'] = [];
  for (let i = 0; i < recent.length; i += 2) {
    const cx = whole(recent[i], 0, 255);
    const cy = whole(recent[i + 1], 0, 255);
    if (cx === undefined || cy === undefined) return undefined;
    cs.push({ x: cx, y: cy });
  }
  return { ...(struct as Omit<CycleStruct, 'cs'>), a: (struct.a as number) + 1, cs };
}

function snapshotToStruct(payload: unknown): SnapshotStruct | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { g, k, t, ph, r, c, m, p } = payload as Record<string, unknown>;
  if (ownKeyCount(payload) !== (c === undefined ? 7 : 8) || !Array.isArray(p)) return undefined;
  const head = {
    g: whole(g, 0, 0xffff),
    k: whole(k, 0, U32),
    t: quantize(t, SCALE.clock, 0, U32),
    ph: PHASES.indexOf(ph as (typeof PHASES)[number]),
    r: quantize(r, SCALE.tenths, 0, U32),
    m: whole(m, 0, 255),
  };
  if (head.ph < 0 || Object.values(head).some((v) => v === undefined)) return undefined;
  const cycles: CycleStruct[] = [];
  for (const cycle of p as unknown[]) {
    const struct = cycleToStruct(cycle);
    if (struct === undefined) return undefined;
    cycles.push(struct);
  }
  const struct = { ...(head as Omit<SnapshotStruct, 'p' | 'c'>), p: cycles };
  if (c === undefined) return struct;
  const v = quantize(c, SCALE.tenths, 0, U32);
  return v === undefined ? undefined : { ...struct, c: { v } };
}

function snapshotFromStruct(value: Record<string, unknown>): Record<string, unknown> {
  const struct = value as unknown as SnapshotStruct;
  const phase = PHASES[struct.ph];
  // Only bodies this side could have encoded decode.
  if (phase === undefined) throw new RangeError(`phase ${struct.ph}`);
  const snapshot: Record<string, unknown> = {
    g: struct.g,
    k: struct.k,
    t: struct.t / SCALE.clock,
    ph: phase,
    r: struct.r / SCALE.tenths,
  };
  if (struct.c !== undefined) snapshot.c = struct.c.v / SCALE.tenths;
  snapshot.m = struct.m;
  snapshot.p = struct.p.map((c) => [
    c.id,
    c.x,
    c.y,
    c.h,
    c.f,
    c.s / SCALE.tenths,
    c.n,
    c.a - 1,
    c.q,
    c.cn,
    c.cs.flatMap((corner) => [corner.x, corner.y]),
  ]);
  return snapshot;
}

const inputWire: WireFormat = { fields: inputFields, toStruct: inputToStruct, fromStruct: inputFromStruct };
const snapshotWire: WireFormat = { fields: snapshotFields, toStruct: snapshotToStruct, fromStruct: snapshotFromStruct };

/** Light cycles' per-tick messages in binary between LAN Party apps. */
export const cyclesWire: BinaryGameWire = { kind: 'binary', version: 1, input: inputWire, snapshot: snapshotWire };
