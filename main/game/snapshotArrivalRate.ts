import { GAME_TICK_RATE } from '../../shared/game/gameProtocol';

/** The window a guest counts snapshot arrivals over (ms): one second, so the count is the rate. */
export const ARRIVAL_WINDOW_MS = 1000;

/**
 * The snapshot rate a guest receives: arrivals in the last second, counted on the injected clock. A host sends at
 * most one snapshot a tick, so at most a tick rate's worth of arrival times is kept, however fast they come.
 */
export class SnapshotArrivalRate {
  private readonly arrivals: number[] = [];

  /** A snapshot arrived at `nowMs`. */
  observe(nowMs: number): void {
    this.arrivals.push(nowMs);
    this.forget(nowMs);
  }

  /** Snapshots received in the second before `nowMs`; null when none arrived in it (no game, or the link is silent). */
  perSecond(nowMs: number): number | null {
    this.forget(nowMs);
    return this.arrivals.length === 0 ? null : this.arrivals.length;
  }

  /** Starts over (a new game). */
  reset(): void {
    this.arrivals.length = 0;
  }

  private forget(nowMs: number): void {
    let drop = 0;
    while (drop < this.arrivals.length && this.arrivals[drop]! <= nowMs - ARRIVAL_WINDOW_MS) drop += 1;
    // A burst beyond one a tick (duplicates, a replay) adds nothing to the rate the host chose.
    drop = Math.max(drop, this.arrivals.length - GAME_TICK_RATE);
    if (drop > 0) this.arrivals.splice(0, drop);
  }
}
