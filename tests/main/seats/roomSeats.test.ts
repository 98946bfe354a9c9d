import { describe, expect, it } from 'vitest';
import { RoomSeats, type SeatEvent } from '../../../main/seats/roomSeats';
import { ManualScheduler } from '../../support/manualScheduler';

function room(graceSec?: number) {
  const clock = new ManualScheduler();
  const seats = new RoomSeats({ clock, ...(graceSec !== undefined ? { graceSec } : {}) });
  const events: SeatEvent[] = [];
  seats.onChange((e) => events.push(e));
  return { clock, seats, events };
}

describe('RoomSeats', () => {
  it('holds the seat of a guest whose link went silent and gives it back on a new link with its token', () => {
    const { clock, seats, events } = room();
    const token = seats.take(4, 4, '192.168.1.20');
    expect(seats.seatOf(4)).toBe(4);
    expect(seats.lost(4)).toBe(4);
    expect(seats.isHeld(4)).toBe(true);
    expect(seats.peerOf(4)).toBeUndefined();
    expect(seats.seatOf(4)).toBeUndefined();
    clock.advance(10_000);
    expect(seats.secondsLeft(4)).toBe(20);
    const back = seats.resume(token, 9, '192.168.1.20');
    expect(back).toMatchObject({ ok: true, seat: 4, replacedPeer: undefined });
    expect(seats.seatOf(9)).toBe(4);
    expect(seats.peerOf(4)).toBe(9);
    expect(seats.isHeld(4)).toBe(false);
    // The old token is spent; the fresh one works the next time.
    expect(seats.resume(token, 10, '192.168.1.20')).toEqual({ ok: false, reason: 'used' });
    seats.lost(9);
    expect(seats.resume(back.ok ? back.token : '', 11, '192.168.1.20')).toMatchObject({ ok: true, seat: 4 });
    expect(events.map((e) => e.change)).toEqual(['held', 'resumed', 'held', 'resumed']);
  });

  it('releases a held seat when the grace is over, and refuses its token after that', () => {
    const { clock, seats, events } = room(30);
    const token = seats.take(2, 2, '10.0.0.5');
    seats.lost(2);
    clock.advance(29_999);
    expect(seats.seats).toEqual([2]);
    clock.advance(1);
    expect(seats.seats).toEqual([]);
    expect(events.at(-1)).toEqual({ seat: 2, change: 'released', reason: 'grace-over' });
    expect(seats.resume(token, 3, '10.0.0.5')).toEqual({ ok: false, reason: 'no-seat' });
    expect(clock.pending).toBe(0);
  });

  it('lets a guest take its seat over from its own older link that has not timed out yet', () => {
    const { seats, events } = room();
    const token = seats.take(1, 1, '10.0.0.5');
    expect(seats.resume(token, 2, '10.0.0.5')).toMatchObject({ ok: true, seat: 1, replacedPeer: 1 });
    expect(seats.seatOf(1)).toBeUndefined();
    expect(seats.seatOf(2)).toBe(1);
    // The old link's timeout now is nobody's business: it sits in no seat.
    expect(seats.lost(1)).toBeUndefined();
    expect(events.map((e) => e.change)).toEqual(['resumed']);
  });

  it('refuses tokens from another room, forged, or from another address, keeping the seat held', () => {
    const { seats } = room();
    const other = room().seats;
    const token = seats.take(1, 1, '10.0.0.5');
    const foreign = other.take(1, 1, '10.0.0.5');
    seats.lost(1);
    expect(seats.resume(foreign, 5, '10.0.0.5')).toEqual({ ok: false, reason: 'other-room' });
    expect(seats.resume(`${token.slice(0, -2)}AA`, 5, '10.0.0.5')).toEqual({ ok: false, reason: 'forged' });
    expect(seats.resume(token, 5, '10.0.0.99')).toEqual({ ok: false, reason: 'other-address' });
    expect(seats.isHeld(1)).toBe(true);
    expect(seats.resume(token, 5, '10.0.0.5')).toMatchObject({ ok: true, seat: 1 });
  });

  it('releases at once when the host removes a held seat, or with a grace of 0', () => {
    const { seats, events } = room();
    seats.take(3, 3, '10.0.0.5');
    seats.lost(3);
    expect(seats.release(3, 'kicked')).toBe(true);
    expect(seats.release(3, 'kicked')).toBe(false);
    expect(events.at(-1)).toEqual({ seat: 3, change: 'released', reason: 'kicked' });
    const none = room(0);
    none.seats.take(1, 1, '10.0.0.5');
    expect(none.seats.lost(1)).toBe(1);
    expect(none.events).toEqual([{ seat: 1, change: 'released', reason: 'grace-over' }]);
  });

  it('releases a seat whose deadline passed even if the timer has not fired yet (a busy event loop)', () => {
    const time = { ms: 0 };
    // A clock whose timers never fire: only the deadline check at resume time can let the seat go.
    const stalled = { now: () => time.ms, setTimer: () => ({}), setRepeating: () => ({}), clearTimer: () => {} };
    const seats = new RoomSeats({ clock: stalled, graceSec: 5 });
    const events: SeatEvent[] = [];
    seats.onChange((e) => events.push(e));
    const token = seats.take(6, 6, '10.0.0.5');
    seats.lost(6);
    expect(seats.deadlineOf(6)).toBe(5_000);
    time.ms = 5_000;
    expect(seats.resume(token, 7, '10.0.0.5')).toEqual({ ok: false, reason: 'no-seat' });
    expect(events).toEqual([
      { seat: 6, change: 'held' },
      { seat: 6, change: 'released', reason: 'grace-over' },
    ]);
    expect(seats.seats).toEqual([]);
  });

  it('forgets everything on close, timers included', () => {
    const { clock, seats } = room();
    seats.take(1, 1, '10.0.0.5');
    seats.lost(1);
    seats.close();
    expect(seats.seats).toEqual([]);
    expect(clock.pending).toBe(0);
  });
});
