/**
 * Unix milliseconds, for times people read or other machines compare (a TURN credential's expiry, "seen 12 s ago",
 * a countdown shown to players). Injected like the Scheduler; measure durations on the Scheduler's monotonic clock.
 */
export type WallClock = () => number;

/** The system's wall clock. */
export const systemWallClock: WallClock = () => Date.now();
