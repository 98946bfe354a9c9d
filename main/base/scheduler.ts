/** Opaque handle of an armed timer, for {@link Scheduler.clearTimer}. */
export type TimerHandle = unknown;

/**
 * The clock and timers of main-process code, injected wherever timing matters so tests move time by hand
 * (tests/support/manualScheduler.ts) instead of sleeping. Handles, not cancel closures: arming a timer per
 * datagram (the link conditioner) allocates nothing beyond the timer itself.
 */
export interface Scheduler {
  /** Milliseconds on a monotonic clock (fractions allowed). */
  now(): number;
  /** Calls `callback` once after at least `delayMs`. */
  setTimer(callback: () => void, delayMs: number): TimerHandle;
  /** Calls `callback` every `intervalMs` until cleared. */
  setRepeating(callback: () => void, intervalMs: number): TimerHandle;
  /** Cancels a timer of either kind; clearing a fired or cleared timer does nothing. */
  clearTimer(handle: TimerHandle): void;
}

type NodeTimer = ReturnType<typeof setTimeout>;

// Node's clearTimeout cancels intervals too, so one clearTimer serves both kinds.
const clearNodeTimer = (handle: TimerHandle): void => clearTimeout(handle as NodeTimer | undefined);

/** Real time (performance.now) and Node's timers; a pending timer keeps the process alive, as setTimeout does. */
export const systemScheduler: Scheduler = {
  now: () => performance.now(),
  setTimer: (callback, delayMs) => setTimeout(callback, delayMs),
  setRepeating: (callback, intervalMs) => setInterval(callback, intervalMs),
  clearTimer: clearNodeTimer,
};

/** {@link systemScheduler} with unref'd timers: background work (discovery rounds) never keeps the process alive. */
export const backgroundScheduler: Scheduler = {
  now: () => performance.now(),
  setTimer: (callback, delayMs) => setTimeout(callback, delayMs).unref(),
  setRepeating: (callback, intervalMs) => setInterval(callback, intervalMs).unref(),
  clearTimer: clearNodeTimer,
};

/** Resolves after `ms` on `scheduler`'s timers (default: unref'd, so a wait never keeps the process alive). */
export function sleep(ms: number, scheduler: Scheduler = backgroundScheduler): Promise<void> {
  return new Promise((resolve) => scheduler.setTimer(resolve, ms));
}
