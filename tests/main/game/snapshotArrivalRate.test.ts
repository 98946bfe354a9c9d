import { describe, expect, it } from 'vitest';
import { ARRIVAL_WINDOW_MS, SnapshotArrivalRate } from '../../../main/game/snapshotArrivalRate';

describe('the snapshot rate a guest receives', () => {
  it('is null before any snapshot, then the arrivals of the last second', () => {
    const rate = new SnapshotArrivalRate();
    expect(rate.perSecond(0)).toBeNull();
    for (let i = 0; i < 40; i += 1) rate.observe(1000 + i * 50); // 20 a second for 2 s
    expect(rate.perSecond(1000 + 39 * 50)).toBe(20);
  });

  it('follows a rate the host lowers, within a second', () => {
    const rate = new SnapshotArrivalRate();
    for (let i = 0; i < 120; i += 1) rate.observe((i * 1000) / 60);
    expect(rate.perSecond((119 * 1000) / 60)).toBe(60);
    for (let i = 0; i < 30; i += 1) rate.observe(2000 + (i * 1000) / 30);
    expect(rate.perSecond(2000 + ARRIVAL_WINDOW_MS - 10)).toBe(30);
  });

  it('goes back to null when the snapshots stop, and on reset', () => {
    const rate = new SnapshotArrivalRate();
    rate.observe(0);
    expect(rate.perSecond(999)).toBe(1);
    expect(rate.perSecond(1000)).toBeNull();
    rate.observe(2000);
    rate.reset();
    expect(rate.perSecond(2000)).toBeNull();
  });

  it('keeps at most a tick rate of arrivals, however many come at once', () => {
    const rate = new SnapshotArrivalRate();
    for (let i = 0; i < 10_000; i += 1) rate.observe(5);
    expect(rate.perSecond(5)).toBe(60);
  });
});
