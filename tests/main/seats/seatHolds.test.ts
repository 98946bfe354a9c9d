import { describe, expect, it } from 'vitest';
import { DEFAULT_SEAT_GRACE_SEC, SeatHolds } from '../../../main/seats/seatHolds';

function holds(graceSec?: number) {
  const clock = { ms: 10_000 };
  return { clock, seats: new SeatHolds(() => clock.ms, graceSec) };
}

describe('seat holds', () => {
  it('holds a silent guest’s seat for 30 s by default, counting down in whole seconds', () => {
    const { clock, seats } = holds();
    expect(seats.graceSec).toBe(DEFAULT_SEAT_GRACE_SEC);
    expect(seats.hold(3)).toEqual({ seat: 3, since: 10_000, deadline: 40_000 });
    expect(seats.secondsLeft(3)).toBe(30);
    clock.ms += 10_500;
    expect(seats.secondsLeft(3)).toBe(20);
    expect(seats.isHeld(3)).toBe(true);
    // Holding again (a second silence report) keeps the first deadline.
    expect(seats.hold(3).deadline).toBe(40_000);
    expect(seats.expire()).toEqual([]);
  });

  it('gives the seat back to a guest that returns within the grace', () => {
    const { clock, seats } = holds();
    seats.hold(3);
    clock.ms += 29_999;
    expect(seats.resume(3)).toBe(true);
    expect(seats.isHeld(3)).toBe(false);
    expect(seats.secondsLeft(3)).toBeUndefined();
    clock.ms += 60_000;
    expect(seats.expire()).toEqual([]);
    // A seat that was never held cannot be resumed.
    expect(seats.resume(4)).toBe(false);
  });

  it('lets the seat go once the grace is over, and refuses a late return even before expire() ran', () => {
    const { clock, seats } = holds();
    seats.hold(5);
    clock.ms += 5_000;
    seats.hold(2);
    expect(seats.nextDeadline()).toBe(40_000);
    clock.ms += 30_000;
    expect(seats.isHeld(5)).toBe(false);
    expect(seats.resume(5)).toBe(false);
    expect(seats.secondsLeft(5)).toBe(0);
    expect(seats.expire().map((e) => e.seat)).toEqual([5, 2]);
    expect(seats.list()).toEqual([]);
    expect(seats.nextDeadline()).toBeUndefined();
  });

  it('expires seats in deadline order, only those due', () => {
    const { clock, seats } = holds(10);
    seats.hold(1);
    clock.ms += 4_000;
    seats.hold(2);
    clock.ms += 6_000;
    expect(seats.expire().map((e) => e.seat)).toEqual([1]);
    expect(seats.list().map((e) => e.seat)).toEqual([2]);
    expect(seats.nextDeadline()).toBe(24_000);
  });

  it('lets the host remove a held seat at once', () => {
    const { seats } = holds();
    seats.hold(7);
    expect(seats.remove(7)).toBe(true);
    expect(seats.remove(7)).toBe(false);
    expect(seats.resume(7)).toBe(false);
    seats.hold(8);
    seats.clear();
    expect(seats.list()).toEqual([]);
  });

  it('takes a grace of 0 (no holding) to 600 s and refuses anything else', () => {
    const { seats } = holds(0);
    seats.hold(1);
    expect(seats.isHeld(1)).toBe(false);
    expect(seats.expire().map((e) => e.seat)).toEqual([1]);
    for (const bad of [-1, 601, Number.NaN, Infinity]) expect(() => holds(bad)).toThrow(RangeError);
    expect(holds(600).seats.graceSec).toBe(600);
  });
});
