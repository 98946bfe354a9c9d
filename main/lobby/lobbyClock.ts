import { performance } from 'node:perf_hooks';

/** Time and one-shot timers for the lobby's deadlines and limits; injected so tests control time. */
export interface LobbyClock {
  /** Monotonic milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The process's monotonic clock and Node's timers (unref'd: a pending deadline never keeps the process alive). */
export const realLobbyClock: LobbyClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
