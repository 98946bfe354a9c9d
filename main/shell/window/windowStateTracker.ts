import type { Logger } from '../../base/logger';
import { systemScheduler, type Scheduler, type TimerHandle } from '../../base/scheduler';
import type { Rect } from './windowBounds';
import type { WindowState } from './windowStateFile';

/** The window surface the tracker reads; Electron's BrowserWindow satisfies it. */
export interface TrackedWindow {
  on(event: 'resize', listener: () => void): unknown;
  on(event: 'move', listener: () => void): unknown;
  on(event: 'maximize', listener: () => void): unknown;
  on(event: 'unmaximize', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isDestroyed(): boolean;
}

/** Options of {@link trackWindowState}. */
export interface WindowStateTrackerOptions {
  readonly save: (state: WindowState) => Promise<void>;
  readonly logger: Logger;
  /** Quiet time after the last move or resize before writing. Default 500 ms. */
  readonly delayMs?: number;
  /** Times the quiet wait; default real timers. */
  readonly scheduler?: Scheduler;
}

/** Keeps the saved window state current. */
export interface WindowStateTracker {
  /** Reads the window once more, writes what is not saved yet and waits for every write (before quitting). */
  flush(): Promise<void>;
}

/**
 * Follows a window's normal bounds and maximised state: writes a moment after moving or resizing stops, and at
 * once when the window closes. Writes run one at a time; a failed one is logged, never thrown.
 */
export function trackWindowState(win: TrackedWindow, options: WindowStateTrackerOptions): WindowStateTracker {
  const delayMs = options.delayMs ?? 500;
  const scheduler = options.scheduler ?? systemScheduler;
  let latest: WindowState | null = null;
  let saved: WindowState | null = null;
  let timer: TimerHandle = null;
  let writes: Promise<void> = Promise.resolve();

  const capture = (): void => {
    if (win.isDestroyed()) return;
    const { x, y, width, height } = win.getNormalBounds();
    latest = { x, y, width, height, maximized: win.isMaximized() };
  };
  const same = (a: WindowState | null, b: WindowState | null): boolean =>
    a !== null && b !== null && (Object.keys(a) as (keyof WindowState)[]).every((key) => a[key] === b[key]);
  const write = (): Promise<void> => {
    if (timer !== null) scheduler.clearTimer(timer);
    timer = null;
    const state = latest;
    if (state && !same(state, saved)) {
      saved = state;
      writes = writes.then(() =>
        options.save(state).catch((error: unknown) => options.logger.warn('could not save the window state', error)),
      );
    }
    return writes;
  };
  const soon = (): void => {
    capture();
    if (timer !== null) scheduler.clearTimer(timer);
    timer = scheduler.setTimer(() => void write(), delayMs);
  };

  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) win.on(event as 'resize', soon);
  win.on('close', () => {
    capture();
    void write();
  });
  return {
    flush() {
      capture();
      return write();
    },
  };
}
