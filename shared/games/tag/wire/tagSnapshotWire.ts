import { arrayOf, FieldType, optional } from '../../../codec/fieldTypes';
import { ownKeyCount } from '../../../codec/ownKeyCount';
import { quantize } from '../../../codec/quantize';
import type { WireFormat } from '../../../codec/wireFormat';

/**
 * The wire's own precision (not tag's SNAPSHOT_DECIMALS, so a build that rounds differently cannot be misread by
 * this format: a value these scales do not hold exactly travels as JSON instead).
 */
const SCALE = { clock: 1000, timer: 10, position: 100, velocity: 10, score: 10, cooldown: 100 } as const;
const PHASES = ['waiting', 'playing', 'ended'] as const;
const I32 = { min: -(2 ** 31), max: 2 ** 31 - 1 } as const;
const U32_MAX = 2 ** 32 - 1;

/**
 * `game.snapshot` with tag's player tuples `[id, x, y, vx, vy, flags, score, cooldown, ack]`: every number a scaled
 * whole number (`ack` + 1, so "none yet" is 0), the phase an index.
 */
const snapshotFields = {
  g: FieldType.u16,
  k: FieldType.u32,
  t: FieldType.u32,
  ph: FieldType.u8,
  r: FieldType.u32,
  c: optional({ v: FieldType.u32 }),
  p: arrayOf({
    id: FieldType.string,
    x: FieldType.i32,
    y: FieldType.i32,
    vx: FieldType.i32,
    vy: FieldType.i32,
    f: FieldType.u8,
    s: FieldType.i32,
    cd: FieldType.i32,
    a: FieldType.u32,
  }),
} as const;

interface PlayerStruct {
  id: string;
  x: number;
  y: number;
  vx: number;
  vy: number;
  f: number;
  s: number;
  cd: number;
  a: number;
}

interface SnapshotStruct {
  g: number;
  k: number;
  t: number;
  ph: number;
  r: number;
  c?: { v: number };
  p: PlayerStruct[];
}

function whole(value: unknown, min: number, max: number): number | undefined {
  return quantize(value, 1, min, max);
}

function toPlayer(value: unknown): PlayerStruct | undefined {
  if (!Array.isArray(value) || value.length !== 9) return undefined;
  // Indexes, not destructuring (an iterator per tuple): this runs for every player of every snapshot.
  const tuple = value as unknown[];
  const id = tuple[0];
  if (typeof id !== 'string') return undefined;
  const x = quantize(tuple[1], SCALE.position, I32.min, I32.max);
  const y = quantize(tuple[2], SCALE.position, I32.min, I32.max);
  const vx = quantize(tuple[3], SCALE.velocity, I32.min, I32.max);
  const vy = quantize(tuple[4], SCALE.velocity, I32.min, I32.max);
  const f = whole(tuple[5], 0, 0xff);
  const s = quantize(tuple[6], SCALE.score, I32.min, I32.max);
  const cd = quantize(tuple[7], SCALE.cooldown, I32.min, I32.max);
  const a = whole(tuple[8], -1, U32_MAX - 1);
  if (x === undefined || y === undefined || vx === undefined || vy === undefined) return undefined;
  if (f === undefined || s === undefined || cd === undefined || a === undefined) return undefined;
  return { id, x, y, vx, vy, f, s, cd, a: a + 1 };
}

function toStruct(payload: unknown): SnapshotStruct | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { g, k, t, ph, r, c, p } = payload as Record<string, unknown>;
  if (ownKeyCount(payload) !== (c === undefined ? 6 : 7) || !Array.isArray(p)) return undefined;
  const struct: SnapshotStruct = {
    g: whole(g, 0, 0xffff) ?? -1,
    k: whole(k, 0, U32_MAX) ?? -1,
    t: quantize(t, SCALE.clock, 0, U32_MAX) ?? -1,
    ph: PHASES.indexOf(ph as (typeof PHASES)[number]),
    r: quantize(r, SCALE.timer, 0, U32_MAX) ?? -1,
    p: new Array<PlayerStruct>(p.length),
  };
  if (struct.g < 0 || struct.k < 0 || struct.t < 0 || struct.ph < 0 || struct.r < 0) return undefined;
  if (c !== undefined) {
    const v = quantize(c, SCALE.timer, 0, U32_MAX);
    if (v === undefined) return undefined;
    struct.c = { v };
  }
  for (let i = 0; i < p.length; i++) {
    const player = toPlayer(p[i]);
    if (player === undefined) return undefined;
    struct.p[i] = player;
  }
  return struct;
}

function fromStruct(value: Record<string, unknown>): Record<string, unknown> {
  const struct = value as unknown as SnapshotStruct;
  const players = new Array<unknown[]>(struct.p.length);
  for (let i = 0; i < players.length; i++) {
    const p = struct.p[i] as PlayerStruct;
    players[i] = [
      p.id,
      p.x / SCALE.position,
      p.y / SCALE.position,
      p.vx / SCALE.velocity,
      p.vy / SCALE.velocity,
      p.f,
      p.s / SCALE.score,
      p.cd / SCALE.cooldown,
      p.a - 1,
    ];
  }
  const phase = PHASES[struct.ph];
  // Only bodies this side could have encoded decode (as in the codec itself).
  if (phase === undefined) throw new RangeError(`phase ${struct.ph}`);
  const snapshot: Record<string, unknown> = {
    k: struct.k,
    t: struct.t / SCALE.clock,
    ph: phase,
    r: struct.r / SCALE.timer,
  };
  if (struct.c !== undefined) snapshot.c = struct.c.v / SCALE.timer;
  snapshot.p = players;
  snapshot.g = struct.g;
  return snapshot;
}

/** Tag's `game.snapshot` binary: ~31 bytes per player (2-character ids), where compact JSON takes ~50 mid-round. */
export const tagSnapshotWire: WireFormat = { fields: snapshotFields, toStruct, fromStruct };
