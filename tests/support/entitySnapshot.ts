import { arrayOf, defineSchema, FieldType } from '../../main/net/codec';
import { seededRandom } from './seededRandom';

/** The layout of a game snapshot: 20 bytes of floats and 4 of integers per entity. */
export const entitySnapshotSchema = defineSchema({
  tick: FieldType.u32,
  time: FieldType.f64,
  entities: arrayOf({
    id: FieldType.u16,
    x: FieldType.f32,
    y: FieldType.f32,
    vx: FieldType.f32,
    vy: FieldType.f32,
    angle: FieldType.f32,
    hp: FieldType.u8,
    flags: FieldType.u8,
  }),
});

/** One snapshot's payload. */
export interface EntitySnapshot {
  tick: number;
  time: number;
  entities: { id: number; x: number; y: number; vx: number; vy: number; angle: number; hp: number; flags: number }[];
}

/** A repeatable snapshot of `count` entities with full-precision random doubles, as a simulation produces them. */
export function entitySnapshot(seed = 1, count = 20): EntitySnapshot {
  const random = seededRandom(seed);
  const tick = 1000 + Math.floor(random() * 100_000);
  return {
    tick,
    time: tick / 60 + random() / 1000,
    entities: Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      x: random() * 1920,
      y: random() * 1080,
      vx: (random() - 0.5) * 400,
      vy: (random() - 0.5) * 400,
      angle: random() * 2 * Math.PI,
      hp: Math.floor(random() * 101),
      flags: Math.floor(random() * 16),
    })),
  };
}
