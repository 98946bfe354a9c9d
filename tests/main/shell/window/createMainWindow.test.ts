import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loggerSpy } from '../../ipc/loggerSpy';

// A fake BrowserWindow that records its options and the handlers installed on its webContents.
const created: FakeWindow[] = [];
let failLoads = false;
class FakeWindow {
  readonly listeners = new Map<string, (event: unknown) => void>();
  openHandler: ((details: { url: string }) => unknown) | null = null;
  readonly maximize = vi.fn();
  readonly loadFile = vi.fn(() => Promise.resolve());
  readonly loadURL = vi.fn(() => (failLoads ? Promise.reject(new Error('ERR_CONNECTION_REFUSED')) : Promise.resolve()));
  readonly webContents = {
    setWindowOpenHandler: (handler: (details: { url: string }) => unknown) => {
      this.openHandler = handler;
    },
    on: (name: string, listener: (event: unknown) => void) => {
      this.listeners.set(name, listener);
    },
  };
  constructor(readonly options: Electron.BrowserWindowConstructorOptions) {
    created.push(this);
  }
}
vi.mock('electron', () => ({ BrowserWindow: FakeWindow }));

const { createMainWindow } = await import('../../../../main/shell/window/createMainWindow');

beforeEach(() => {
  created.length = 0;
  failLoads = false;
});

describe('createMainWindow', () => {
  it('creates the window with the secure web preferences and our preload', () => {
    createMainWindow({
      preloadPath: '/app/preload.js',
      location: { kind: 'file', indexPath: '/app/index.html' },
      logger: loggerSpy(),
    });
    const prefs = created[0]!.options.webPreferences!;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      preload: '/app/preload.js',
    });
  });

  it('denies new windows and navigation on the window it creates', () => {
    createMainWindow({ preloadPath: '/p.js', location: { kind: 'file', indexPath: '/i.html' }, logger: loggerSpy() });
    const win = created[0]!;
    expect(win.openHandler!({ url: 'https://evil.example' })).toEqual({ action: 'deny' });
    const nav = { url: 'https://evil.example', preventDefault: vi.fn() };
    win.listeners.get('will-navigate')!(nav);
    expect(nav.preventDefault).toHaveBeenCalledOnce();
    expect(win.listeners.has('will-attach-webview')).toBe(true);
  });

  it('loads the built file, or the dev server URL when given', () => {
    createMainWindow({ preloadPath: '/p.js', location: { kind: 'file', indexPath: '/i.html' }, logger: loggerSpy() });
    createMainWindow({
      preloadPath: '/p.js',
      location: { kind: 'url', url: 'http://localhost:5173/' },
      logger: loggerSpy(),
    });
    expect(created[0]!.loadFile).toHaveBeenCalledWith('/i.html');
    expect(created[0]!.loadURL).not.toHaveBeenCalled();
    expect(created[1]!.loadURL).toHaveBeenCalledWith('http://localhost:5173/');
  });

  it('logs a failed load instead of crashing', async () => {
    const logger = loggerSpy();
    failLoads = true;
    const win = createMainWindow({ preloadPath: '/p.js', location: { kind: 'url', url: 'http://x/' }, logger });
    expect(win).toBe(created[0]);
    await vi.waitFor(() => expect(logger.error).toHaveBeenCalledOnce());
  });

  it('opens at the restored bounds, maximised when it was, never below the layout’s minimum', () => {
    const bounds = { x: 40, y: 30, width: 1280, height: 800 };
    createMainWindow({ ...base, bounds, maximized: true });
    createMainWindow(base);
    expect(created[0]!.options).toMatchObject({ ...bounds, minWidth: 960, minHeight: 600 });
    expect(created[0]!.maximize).toHaveBeenCalledOnce();
    expect(created[1]!.options).toMatchObject({ width: 1100, height: 720, minWidth: 960, minHeight: 600 });
    expect(created[1]!.options.x).toBeUndefined();
    expect(created[1]!.maximize).not.toHaveBeenCalled();
  });
});

const base = { preloadPath: '/p.js', location: { kind: 'file', indexPath: '/i.html' }, logger: loggerSpy() } as const;
