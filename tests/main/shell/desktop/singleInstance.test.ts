import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import {
  claimSingleInstance,
  revealWindow,
  type RevealableWindow,
  type SingleInstanceApp,
} from '../../../../main/shell/desktop/singleInstance';

/** Electron's app stand-in: a real emitter, so 'second-instance' is delivered the way Electron does it. */
function fakeApp(gotLock: boolean) {
  const emitter = new EventEmitter();
  const app = Object.assign(emitter, {
    requestSingleInstanceLock: vi.fn(() => gotLock),
    quit: vi.fn(),
  });
  return { app, asElectron: app as unknown as SingleInstanceApp };
}

function fakeWindow(state: { minimized?: boolean; visible?: boolean; destroyed?: boolean } = {}) {
  const calls: string[] = [];
  const win: RevealableWindow = {
    isDestroyed: () => state.destroyed ?? false,
    isMinimized: () => state.minimized ?? false,
    isVisible: () => state.visible ?? true,
    restore: () => void calls.push('restore'),
    show: () => void calls.push('show'),
    focus: () => void calls.push('focus'),
  };
  return { win, calls };
}

describe('claimSingleInstance', () => {
  it('in the first instance: keeps running and focuses on every later launch', () => {
    const { app, asElectron } = fakeApp(true);
    const focus = vi.fn();
    expect(claimSingleInstance(asElectron, focus)).toBe(true);
    expect(app.quit).not.toHaveBeenCalled();
    expect(focus).not.toHaveBeenCalled();
    app.emit('second-instance', {}, ['lan-party'], '/home/hana', {});
    app.emit('second-instance', {}, ['lan-party'], '/home/hana', {});
    expect(focus).toHaveBeenCalledTimes(2);
  });

  it('passes each later launch’s command line on (where Windows and Linux put a clicked link)', () => {
    const { app, asElectron } = fakeApp(true);
    const onLaunch = vi.fn();
    claimSingleInstance(asElectron, onLaunch);
    app.emit('second-instance', {}, ['lan-party', 'lanparty://join/ABCDE-FGHJK'], '/home/hana', {});
    expect(onLaunch).toHaveBeenCalledExactlyOnceWith(['lan-party', 'lanparty://join/ABCDE-FGHJK']);
    // A malformed argv (not an array, or non-strings in it) becomes a clean string list.
    app.emit('second-instance', {}, undefined, '/', {});
    app.emit('second-instance', {}, ['x', 7, null], '/', {});
    expect(onLaunch.mock.calls.slice(1)).toEqual([[[]], [['x']]]);
  });

  it('in a second instance: quits, returns false and never listens', () => {
    const { app, asElectron } = fakeApp(false);
    const focus = vi.fn();
    expect(claimSingleInstance(asElectron, focus)).toBe(false);
    expect(app.quit).toHaveBeenCalledTimes(1);
    expect(app.listenerCount('second-instance')).toBe(0);
  });

  it('reports a focus callback that throws instead of crashing the main process', () => {
    const { app, asElectron } = fakeApp(true);
    const onError = vi.fn();
    const boom = new Error('window gone');
    claimSingleInstance(
      asElectron,
      () => {
        throw boom;
      },
      onError,
    );
    expect(() => app.emit('second-instance', {}, [], '/', {})).not.toThrow();
    expect(onError).toHaveBeenCalledWith(boom);
  });
});

describe('revealWindow', () => {
  it('restores a minimised window, then focuses it', () => {
    const { win, calls } = fakeWindow({ minimized: true });
    revealWindow(win);
    expect(calls).toEqual(['restore', 'focus']);
  });

  it('shows a hidden window, then focuses it', () => {
    const { win, calls } = fakeWindow({ visible: false });
    revealWindow(win);
    expect(calls).toEqual(['show', 'focus']);
  });

  it('only focuses a window that is already up', () => {
    const { win, calls } = fakeWindow();
    revealWindow(win);
    expect(calls).toEqual(['focus']);
  });

  it('does nothing before the window exists or after it is destroyed', () => {
    expect(() => revealWindow(null)).not.toThrow();
    expect(() => revealWindow(undefined)).not.toThrow();
    const { win, calls } = fakeWindow({ destroyed: true, minimized: true });
    revealWindow(win);
    expect(calls).toEqual([]);
  });
});
