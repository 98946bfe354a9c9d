import { EventEmitter } from 'node:events';
import type { MessageBoxOptions, RenderProcessGoneDetails } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { installRendererRecovery, type RecoveryWindow } from '../../../../main/shell/window/rendererRecovery';
import { loggerSpy } from '../../ipc/loggerSpy';

/** A window stand-in: real emitters, so the handlers run the way Electron delivers the events. */
function fakeWindow() {
  const events = new EventEmitter();
  const contents = Object.assign(new EventEmitter(), { reload: vi.fn(), forcefullyCrashRenderer: vi.fn() });
  let destroyed = false;
  const win = Object.assign(events, { webContents: contents, isDestroyed: () => destroyed });
  return {
    win: win as unknown as RecoveryWindow,
    contents,
    gone: (reason: RenderProcessGoneDetails['reason'], exitCode = 1) =>
      contents.emit('render-process-gone', {}, { reason, exitCode }),
    hang: () => events.emit('unresponsive'),
    destroy: () => {
      destroyed = true;
    },
  };
}

function setup(answers: number[] = []) {
  const fake = fakeWindow();
  const boxes: MessageBoxOptions[] = [];
  const dialog = {
    showMessageBox: vi.fn(async (box: MessageBoxOptions) => {
      boxes.push(box);
      return { response: answers.shift() ?? 0 };
    }),
  };
  let clock = 0;
  const onReload = vi.fn();
  const quit = vi.fn();
  const logger = loggerSpy();
  installRendererRecovery(fake.win, { logger, dialog, onReload, quit, scheduler: { now: () => clock } });
  return { ...fake, dialog, boxes, onReload, quit, logger, advance: (ms: number) => (clock += ms) };
}

describe('renderer recovery: a crashed renderer', () => {
  it('is reloaded, and the page is told why', () => {
    const { gone, contents, onReload, logger } = setup();
    gone('crashed', 139);
    expect(onReload).toHaveBeenCalledExactlyOnceWith('renderer-crashed');
    expect(contents.reload).toHaveBeenCalledOnce();
    expect(logger.error.mock.calls[0]![0]).toContain('crashed, exit code 139');
  });

  it('a clean exit (the window closing) or a destroyed window is left alone', () => {
    const { gone, contents, destroy } = setup();
    gone('clean-exit', 0);
    destroy();
    gone('crashed');
    expect(contents.reload).not.toHaveBeenCalled();
  });

  it('a crash loop asks instead of reloading forever, and Quit quits', async () => {
    const { gone, contents, dialog, quit, boxes } = setup([1]);
    for (let i = 0; i < 3; i += 1) gone('oom');
    expect(contents.reload).toHaveBeenCalledTimes(3);
    gone('oom');
    await vi.waitFor(() => expect(quit).toHaveBeenCalledOnce());
    expect(contents.reload).toHaveBeenCalledTimes(3);
    expect(dialog.showMessageBox).toHaveBeenCalledOnce();
    expect(boxes[0]).toMatchObject({ message: 'The LAN Party window keeps crashing.', buttons: ['Reload', 'Quit'] });
  });

  it('in a crash loop, Reload reloads once more', async () => {
    const { gone, contents, quit } = setup([0]);
    for (let i = 0; i < 4; i += 1) gone('crashed');
    await vi.waitFor(() => expect(contents.reload).toHaveBeenCalledTimes(4));
    expect(quit).not.toHaveBeenCalled();
  });

  it('crashes spread out over time are not a loop', () => {
    const { gone, contents, dialog, advance } = setup();
    for (let i = 0; i < 6; i += 1) {
      gone('crashed');
      advance(30_000);
    }
    expect(contents.reload).toHaveBeenCalledTimes(6);
    expect(dialog.showMessageBox).not.toHaveBeenCalled();
  });
});

describe('renderer recovery: a hung renderer', () => {
  it('offers Wait or Reload; Wait does nothing', async () => {
    const { hang, contents, dialog, boxes } = setup([0]);
    hang();
    await vi.waitFor(() => expect(dialog.showMessageBox).toHaveBeenCalledOnce());
    expect(boxes[0]).toMatchObject({ buttons: ['Wait', 'Reload'], defaultId: 0, cancelId: 0 });
    await Promise.resolve();
    expect(contents.forcefullyCrashRenderer).not.toHaveBeenCalled();
    expect(contents.reload).not.toHaveBeenCalled();
  });

  it('Reload kills the hung renderer and reloads once, telling the page it hung', async () => {
    const { hang, gone, contents, onReload } = setup([1]);
    hang();
    await vi.waitFor(() => expect(contents.forcefullyCrashRenderer).toHaveBeenCalledOnce());
    gone('killed');
    expect(contents.reload).toHaveBeenCalledOnce();
    expect(onReload).toHaveBeenCalledExactlyOnceWith('renderer-hung');
    // The next crash is a crash again.
    gone('crashed');
    expect(onReload).toHaveBeenLastCalledWith('renderer-crashed');
  });

  it('asks once while the question is open, and logs a dialog that fails', async () => {
    const { hang, dialog, logger } = setup();
    dialog.showMessageBox.mockImplementationOnce(() => new Promise(() => {}));
    hang();
    hang();
    expect(dialog.showMessageBox).toHaveBeenCalledOnce();
    const second = setup();
    second.dialog.showMessageBox.mockRejectedValueOnce(new Error('no display'));
    second.hang();
    await vi.waitFor(() => expect(second.logger.error).toHaveBeenCalledOnce());
    expect(second.contents.forcefullyCrashRenderer).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });
});
