import { describe, expect, it } from 'vitest';
import { binarySerializer } from '../../../../main/net/codec';
import { compactJsonSerializer, jsonSerializer } from '../../../../main/net/v1/serialization';
import { entitySnapshot, entitySnapshotSchema } from '../../../support/entitySnapshot';

describe('20-entity snapshot', () => {
  const serializer = binarySerializer({ schemas: { snapshot: entitySnapshotSchema }, name: 'snapshot-test' });

  it('is repeatable for a seed and full of full-precision doubles', () => {
    expect(entitySnapshot(7)).toEqual(entitySnapshot(7));
    expect(entitySnapshot(7)).not.toEqual(entitySnapshot(8));
    const { entities } = entitySnapshot();
    expect(entities).toHaveLength(20);
    expect(entities.filter((e) => Math.fround(e.x) !== e.x)).toHaveLength(20);
  });

  it('takes about 3,000 bytes as JSON and at most 600 as a binary body', () => {
    for (const seed of [1, 2, 3]) {
      const payload = entitySnapshot(seed);
      const compact = compactJsonSerializer.serialize('snapshot', payload).byteLength;
      const reference = jsonSerializer.serialize('snapshot', payload).byteLength;
      const binary = serializer.serialize('snapshot', payload).byteLength;
      expect(compact).toBeGreaterThanOrEqual(2_900);
      expect(compact).toBeLessThanOrEqual(3_100);
      expect(reference).toBeGreaterThan(compact);
      // tag + tick + time + count + 20 × (u16 id, 5 × f32, 2 × u8)
      expect(binary).toBe(1 + 4 + 8 + 1 + 20 * 24);
      expect(binary).toBeLessThanOrEqual(600);
    }
  });

  it('round-trips with positions rounded to float32 and everything else exact', () => {
    const payload = entitySnapshot();
    const { type, payload: back } = serializer.deserialize(serializer.serialize('snapshot', payload));
    expect(type).toBe('snapshot');
    const f = Math.fround;
    expect(back).toEqual({
      ...payload,
      entities: payload.entities.map((e) => ({
        ...e,
        x: f(e.x),
        y: f(e.y),
        vx: f(e.vx),
        vy: f(e.vy),
        angle: f(e.angle),
      })),
    });
  });
});
