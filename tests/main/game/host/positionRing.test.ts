import { describe, expect, it } from 'vitest';
import { PositionRing } from '../../../../main/game/host/positionRing';
import { SnapshotInterpolator } from '../../../../shared/net/snapshotInterpolator';

describe('PositionRing', () => {
  it('is empty at first', () => {
    expect(new PositionRing(4).at(0)).toBeUndefined();
  });

  it('refuses a capacity below 2 or fractional', () => {
    expect(() => new PositionRing(1)).toThrow(RangeError);
    expect(() => new PositionRing(2.5)).toThrow(RangeError);
  });

  it('blends between stamps and clamps to the oldest and newest', () => {
    const ring = new PositionRing(4);
    ring.push(1, 10, 100);
    ring.push(2, 20, 300);
    expect(ring.at(1.25)).toEqual({ x: 12.5, y: 150 });
    expect(ring.at(0)).toEqual({ x: 10, y: 100 });
    expect(ring.at(9)).toEqual({ x: 20, y: 300 });
    expect(ring.at(2)).toEqual({ x: 20, y: 300 });
  });

  it('keeps the newest `capacity` positions once it wraps', () => {
    const ring = new PositionRing(3);
    for (let t = 1; t <= 10; t++) ring.push(t, t * 10, -t);
    expect(ring.size).toBe(3);
    expect(ring.at(0)).toEqual({ x: 80, y: -8 }); // 1..7 are gone
    expect(ring.at(8.5)).toEqual({ x: 85, y: -8.5 });
    expect(ring.at(10)).toEqual({ x: 100, y: -10 });
  });

  it('replaces the newest on the same time and ignores a time before it', () => {
    const ring = new PositionRing(3);
    ring.push(1, 1, 1);
    ring.push(2, 2, 2);
    ring.push(2, 5, 5);
    ring.push(1.5, 9, 9);
    expect(ring.size).toBe(2);
    expect(ring.at(2)).toEqual({ x: 5, y: 5 });
    expect(ring.at(1.5)).toEqual({ x: 3, y: 3 });
  });

  it('answers exactly what the SnapshotInterpolator it replaces answered, at every rewind', () => {
    let now = 0;
    const ring = new PositionRing(32);
    const reference = new SnapshotInterpolator<{ x: number; y: number }>({ now: () => now, capacity: 32 });
    for (let tick = 0; tick < 200; tick++) {
      now = tick / 60;
      const x = 800 + 300 * Math.sin(tick / 7);
      const y = 450 + 200 * Math.cos(tick / 11);
      ring.push(now, x, y);
      reference.add({ x, y });
      for (const rewind of [0, 0.004, 0.1, 0.2345, 0.35, 0.6]) {
        expect(ring.at(now - rewind)).toEqual(reference.sample(now - rewind));
      }
    }
  });
});
