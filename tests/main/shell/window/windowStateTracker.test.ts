import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { WindowState } from '../../../../main/shell/window/windowStateFile';
import { trackWindowState, type TrackedWindow } from '../../../../main/shell/window/windowStateTracker';
import { loggerSpy } from '../../ipc/loggerSpy';
import { ManualScheduler } from '../../../support/manualScheduler';

function setup(save: (state: WindowState) => Promise<void> = async () => {}) {
  const events = new EventEmitter();
  const live = { bounds: { x: 10, y: 20, width: 1100, height: 720 }, maximized: false, destroyed: false };
  const win = Object.assign(events, {
    getNormalBounds: () => live.bounds,
    isMaximized: () => live.maximized,
    isDestroyed: () => live.destroyed,
  }) as unknown as TrackedWindow;
  const scheduler = new ManualScheduler(0);
  const saves: WindowState[] = [];
  const logger = loggerSpy();
  const tracker = trackWindowState(win, {
    save: vi.fn(async (state: WindowState) => {
      saves.push(state);
      await save(state);
    }),
    logger,
    scheduler,
  });
  // The quiet wait (500 ms) passes.
  const fireTimers = () => scheduler.advance(500);
  return { events, live, tracker, saves, scheduler, fireTimers, logger };
}

describe('window state tracker', () => {
  it('writes once moving and resizing stop, with the normal bounds and maximised flag', async () => {
    const { events, live, saves, scheduler, fireTimers } = setup();
    live.bounds = { x: 50, y: 60, width: 1200, height: 800 };
    events.emit('move');
    events.emit('resize');
    events.emit('resize');
    expect(scheduler.pending).toBe(1);
    expect(saves).toEqual([]);
    fireTimers();
    await vi.waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]).toEqual({ x: 50, y: 60, width: 1200, height: 800, maximized: false });
    live.maximized = true;
    events.emit('maximize');
    fireTimers();
    await vi.waitFor(() => expect(saves).toHaveLength(2));
    expect(saves[1]).toMatchObject({ maximized: true, width: 1200 });
  });

  it('writes at once when the window closes, and not again for the same state', async () => {
    const { events, saves, tracker } = setup();
    events.emit('close');
    await tracker.flush();
    expect(saves).toEqual([{ x: 10, y: 20, width: 1100, height: 720, maximized: false }]);
  });

  it('flush reads the window once more and waits for the write (before quitting)', async () => {
    let finish: () => void = () => {};
    const { live, tracker, saves } = setup(() => new Promise<void>((resolve) => (finish = resolve)));
    live.bounds = { x: 1, y: 2, width: 1000, height: 650 };
    let flushed = false;
    const flushing = tracker.flush().then(() => (flushed = true));
    await vi.waitFor(() => expect(saves).toHaveLength(1));
    expect(flushed).toBe(false);
    finish();
    await flushing;
    expect(saves[0]).toMatchObject({ width: 1000, height: 650 });
  });

  it('after the window is gone, flush still waits for the write the close started', async () => {
    const { events, live, tracker, saves } = setup();
    events.emit('close');
    live.destroyed = true;
    await tracker.flush();
    expect(saves).toHaveLength(1);
  });

  it('a failed write is logged, and later writes still happen', async () => {
    let fail = true;
    const { events, live, tracker, saves, logger } = setup(async () => {
      if (fail) throw new Error('disk full');
    });
    await tracker.flush();
    expect(logger.warn).toHaveBeenCalledWith('could not save the window state', expect.any(Error));
    fail = false;
    live.bounds = { ...live.bounds, width: 1300 };
    events.emit('close');
    await tracker.flush();
    expect(saves).toHaveLength(2);
  });
});
