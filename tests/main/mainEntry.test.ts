import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestChannel } from '../../shared/ipc/channels';
import { requestNames } from '../../shared/ipc/names';
import { WS_BINDING_ENV } from '../../main/ipc/webSocketGuard';
import { WINDOW_STATE_FILE_NAME } from '../../main/shell/window/windowStateFile';
import { encode } from '../../shared/roomCode';

// main/index.ts against a fake Electron: checks that every security measure is actually wired in.
const APP_FILE_URL = pathToFileURL(resolve(__dirname, '../../dist/renderer/index.html')).href;

type Listener = (...args: unknown[]) => void;

interface Fakes {
  appListeners: Map<string, Listener[]>;
  handlers: Map<string, (event: unknown, ...args: unknown[]) => unknown>;
  windows: FakeWindow[];
  session: Record<
    'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler',
    ReturnType<typeof vi.fn>
  >;
  enableSandbox: ReturnType<typeof vi.fn>;
  quit: ReturnType<typeof vi.fn>;
  exit: ReturnType<typeof vi.fn>;
  setAsDefaultProtocolClient: ReturnType<typeof vi.fn>;
  setApplicationMenu: ReturnType<typeof vi.fn>;
  showMessageBox: ReturnType<typeof vi.fn>;
  showErrorBox: ReturnType<typeof vi.fn>;
  isPackaged: boolean;
  /** Work areas of the fake displays, the primary one first. */
  displays: Electron.Rectangle[];
  userDataDir: string;
  nativeTheme: { themeSource: string };
}

interface FakeContents {
  mainFrame: { url: string; processId: number; routingId: number; detached: boolean };
  setWindowOpenHandler: ReturnType<typeof vi.fn>;
  on: ReturnType<typeof vi.fn>;
  send: ReturnType<typeof vi.fn>;
  reload: ReturnType<typeof vi.fn>;
  forcefullyCrashRenderer: ReturnType<typeof vi.fn>;
  isDestroyed(): boolean;
  /** Calls the listeners registered for an event. */
  emit(name: string, ...args: unknown[]): void;
}

interface FakeWindow {
  options: Electron.BrowserWindowConstructorOptions;
  webContents: FakeContents;
  maximize: ReturnType<typeof vi.fn>;
  emit(name: string, ...args: unknown[]): void;
}

let fakes: Fakes;
let processListeners: Map<string, ((...args: never[]) => unknown)[]>;

function emitter() {
  const listeners = new Map<string, Listener[]>();
  return {
    on: vi.fn((name: string, listener: Listener) => {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
    }),
    emit: (name: string, ...args: unknown[]) => {
      for (const listener of listeners.get(name) ?? []) listener(...args);
    },
  };
}

function fakeContents(): FakeContents {
  return {
    mainFrame: { url: APP_FILE_URL, processId: 3, routingId: 1, detached: false },
    setWindowOpenHandler: vi.fn(),
    send: vi.fn(),
    reload: vi.fn(),
    forcefullyCrashRenderer: vi.fn(),
    isDestroyed: () => false,
    ...emitter(),
  };
}

function installElectronMock(): void {
  vi.doMock('electron', () => {
    const windows = fakes.windows;
    class BrowserWindow {
      readonly webContents = fakeContents();
      readonly events = emitter();
      constructor(readonly options: Electron.BrowserWindowConstructorOptions) {
        windows.push(this);
      }
      static getAllWindows = () => windows;
      loadFile = vi.fn((_path: string) => Promise.resolve());
      loadURL = vi.fn((_url: string) => Promise.resolve());
      isDestroyed = () => false;
      isFocused = () => true;
      isMinimized = () => false;
      isVisible = () => true;
      restore = vi.fn();
      show = vi.fn();
      focus = vi.fn();
      isMaximized = () => false;
      maximize = vi.fn();
      flashFrame = vi.fn();
      getNormalBounds = () => ({ x: 0, y: 0, width: 1100, height: 720 });
      on = (name: string, listener: Listener) => this.events.on(name, listener);
      emit = (name: string, ...args: unknown[]) => this.events.emit(name, ...args);
    }
    class Notification {
      static isSupported = () => true;
      on = vi.fn();
      show = vi.fn();
    }
    return {
      app: {
        enableSandbox: fakes.enableSandbox,
        on: (name: string, listener: Listener) => {
          fakes.appListeners.set(name, [...(fakes.appListeners.get(name) ?? []), listener]);
        },
        whenReady: () => Promise.resolve(),
        requestSingleInstanceLock: () => true,
        setAsDefaultProtocolClient: fakes.setAsDefaultProtocolClient,
        setAppUserModelId: vi.fn(),
        getName: () => 'LAN Party',
        getVersion: () => '9.9.9',
        getPath: (name: string) => (name === 'logs' ? join(fakes.userDataDir, 'logs') : fakes.userDataDir),
        get isPackaged() {
          return fakes.isPackaged;
        },
        quit: fakes.quit,
        exit: fakes.exit,
      },
      BrowserWindow,
      Menu: { buildFromTemplate: (template: unknown) => ({ template }), setApplicationMenu: fakes.setApplicationMenu },
      Notification,
      dialog: { showMessageBox: fakes.showMessageBox, showErrorBox: fakes.showErrorBox, showSaveDialog: vi.fn() },
      screen: {
        getPrimaryDisplay: () => ({ id: 0, workArea: fakes.displays[0] }),
        getAllDisplays: () => fakes.displays.map((workArea, id) => ({ id, workArea })),
      },
      nativeTheme: fakes.nativeTheme,
      session: { defaultSession: fakes.session },
      ipcMain: {
        handle: (channel: string, listener: (event: unknown, ...args: unknown[]) => unknown) =>
          fakes.handlers.set(channel, listener),
        removeHandler: (channel: string) => fakes.handlers.delete(channel),
        on: () => undefined,
        removeListener: () => undefined,
      },
    };
  });
}

async function boot(): Promise<void> {
  vi.resetModules();
  installElectronMock();
  await import('../../main/index');
  await vi.waitFor(() => expect(fakes.windows).toHaveLength(1));
}

/** Calls a request handler as our window's main frame does. */
function request(name: string, input?: unknown): Promise<unknown> {
  const win = fakes.windows[0]!;
  const handler = fakes.handlers.get(requestChannel(name))!;
  return Promise.resolve(handler({ sender: win.webContents, senderFrame: win.webContents.mainFrame }, input));
}

/** The listeners main/index.ts added to the real `process` (removed again after each test). */
function addedProcessListeners(event: 'uncaughtException' | 'unhandledRejection'): ((...args: never[]) => unknown)[] {
  const before = processListeners.get(event) ?? [];
  return process.listeners(event as 'uncaughtException').filter((listener) => !before.includes(listener));
}

beforeEach(async () => {
  fakes = {
    appListeners: new Map(),
    handlers: new Map(),
    windows: [],
    session: {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      setDevicePermissionHandler: vi.fn(),
    },
    enableSandbox: vi.fn(),
    quit: vi.fn(),
    exit: vi.fn(),
    setAsDefaultProtocolClient: vi.fn(() => true),
    setApplicationMenu: vi.fn(),
    showMessageBox: vi.fn(async () => ({ response: 0 })),
    showErrorBox: vi.fn(),
    isPackaged: false,
    displays: [{ x: 0, y: 0, width: 1920, height: 1040 }],
    userDataDir: await mkdtemp(join(tmpdir(), 'lan-party-main-')),
    // Not what the (default) setting says, so the test sees main set it.
    nativeTheme: { themeSource: 'dark' },
  };
  processListeners = new Map(
    (['uncaughtException', 'unhandledRejection'] as const).map((event) => [
      event,
      process.listeners(event as 'uncaughtException'),
    ]),
  );
  delete process.env.VITE_DEV_SERVER_URL;
  delete process.env[WS_BINDING_ENV];
  vi.spyOn(console, 'info').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(async () => {
  for (const listener of fakes.appListeners.get('will-quit') ?? []) listener();
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    for (const listener of addedProcessListeners(event)) process.removeListener(event, listener as never);
  }
  vi.restoreAllMocks();
  vi.doUnmock('electron');
  delete process.env[WS_BINDING_ENV];
  delete process.env.VITE_DEV_SERVER_URL;
  await rm(fakes.userDataDir, { recursive: true, force: true });
});

describe('main entry wiring', () => {
  it('enables the sandbox for all renderers and denies all permissions', async () => {
    await boot();
    expect(fakes.enableSandbox).toHaveBeenCalledOnce();
    expect(fakes.session.setPermissionRequestHandler).toHaveBeenCalledOnce();
    expect(fakes.session.setPermissionCheckHandler).toHaveBeenCalledOnce();
    const check = fakes.session.setPermissionCheckHandler.mock.calls[0]![0] as () => boolean;
    expect(check()).toBe(false);
  });

  it('takes the single-instance lock and focuses the window on a second launch', async () => {
    await boot();
    expect(fakes.appListeners.get('second-instance')).toHaveLength(1);
  });

  it('guards every webContents Electron creates', async () => {
    await boot();
    const [onCreated] = fakes.appListeners.get('web-contents-created') ?? [];
    const contents = fakeContents();
    onCreated!({}, contents);
    expect(contents.setWindowOpenHandler).toHaveBeenCalledOnce();
    expect(contents.on.mock.calls.map((c) => c[0])).toEqual(expect.arrayContaining(['will-navigate']));
  });

  it('opens one secure window on the built renderer with the bundled preload', async () => {
    await boot();
    const prefs = fakes.windows[0]!.options.webPreferences!;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(prefs.preload).toMatch(/preload\.js$/);
    expect(fakes.windows[0]!.webContents.setWindowOpenHandler).toHaveBeenCalled();
  });

  it('registers a handler per request that answers our main frame and refuses other frames', async () => {
    await boot();
    expect([...fakes.handlers.keys()].sort()).toEqual(requestNames.map(requestChannel).sort());
    const win = fakes.windows[0]!;
    const invoke = fakes.handlers.get(requestChannel('app.getInfo'))!;
    const fromMain = await invoke({ sender: win.webContents, senderFrame: win.webContents.mainFrame });
    expect(fromMain).toMatchObject({ ok: true, value: { name: 'LAN Party', version: '9.9.9', transport: 'electron' } });
    const subframe = { ...win.webContents.mainFrame, routingId: 7 };
    expect(await invoke({ sender: win.webContents, senderFrame: subframe })).toMatchObject({
      ok: false,
      error: { code: 'permission-denied' },
    });
    const elsewhere = { ...win.webContents.mainFrame, url: 'https://evil.example/' };
    expect(await invoke({ sender: win.webContents, senderFrame: elsewhere })).toMatchObject({ ok: false });
  });

  it('stores settings in the user-data folder and pushes settings.changed to the window', async () => {
    await boot();
    const win = fakes.windows[0]!;
    const event = { sender: win.webContents, senderFrame: win.webContents.mainFrame };
    const update = fakes.handlers.get(requestChannel('settings.update'))!;
    expect(await update(event, { playerName: 'Nova' })).toMatchObject({ ok: true, value: { playerName: 'Nova' } });
    expect(win.webContents.send).toHaveBeenCalledWith(
      'lanParty:event:settings.changed',
      expect.objectContaining({ playerName: 'Nova' }),
    );
  });

  it('closes the backend (and any open room) before quitting, once', async () => {
    await boot();
    const [beforeQuit] = fakes.appListeners.get('before-quit') ?? [];
    const event = { preventDefault: vi.fn() };
    beforeQuit!(event);
    expect(event.preventDefault).toHaveBeenCalledOnce();
    await vi.waitFor(() => expect(fakes.quit).toHaveBeenCalledOnce());
    const again = { preventDefault: vi.fn() };
    beforeQuit!(again);
    expect(again.preventDefault).not.toHaveBeenCalled();
  });

  it('does not start the WebSocket binding unless asked', async () => {
    await boot();
    expect(fakes.appListeners.has('will-quit')).toBe(false);
    expect(vi.mocked(console.info).mock.calls.flat().join(' ')).not.toContain('#ws=');
  });

  it('starts the WebSocket binding in a dev run when the env var asks for it, its secret on the terminal only', async () => {
    process.env[WS_BINDING_ENV] = '1';
    const terminal = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await boot();
      await vi.waitFor(() => expect(fakes.appListeners.has('will-quit')).toBe(true));
      expect(terminal.mock.calls.flat().join(' ')).toMatch(/#ws=\d+&secret=[\w-]{43}/);
    } finally {
      terminal.mockRestore();
    }
    // The log (main.log in the app) names the port, never the secret.
    const logged = vi.mocked(console.info).mock.calls.flat().join(' ');
    expect(logged).toMatch(/WebSocket binding for browsers on port \d+/);
    expect(logged).not.toContain('secret=');
  });

  it('sets the native theme from the theme setting and follows changes', async () => {
    await boot();
    const win = fakes.windows[0]!;
    const event = { sender: win.webContents, senderFrame: win.webContents.mainFrame };
    const update = fakes.handlers.get(requestChannel('settings.update'))!;
    await vi.waitFor(() => expect(fakes.nativeTheme.themeSource).toBe('system'));
    expect(await update(event, { theme: 'light' })).toMatchObject({ ok: true, value: { theme: 'light' } });
    expect(fakes.nativeTheme.themeSource).toBe('light');
  });

  it('writes the log, renderer errors included, to main.log in the logs folder (and the console in dev)', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    await boot();
    const win = fakes.windows[0]!;
    const event = { sender: win.webContents, senderFrame: win.webContents.mainFrame };
    const report = fakes.handlers.get(requestChannel('app.reportError'))!;
    expect(await report(event, { source: 'window-error', message: 'boom', stack: 'Error: boom' })).toEqual({
      ok: true,
      value: { logged: true },
    });
    const log = await readFile(join(fakes.userDataDir, 'logs', 'main.log'), 'utf8');
    expect(log).toMatch(/\[error\] \(main\) renderer: uncaught error: boom \n {4}Error: boom\n$/);
    expect(consoleError).toHaveBeenCalledWith('[main]', 'renderer: uncaught error: boom', '\n    Error: boom');
  });

  it('packaged: ignores VITE_DEV_SERVER_URL and the WebSocket binding, and the bridge answers only its own file', async () => {
    fakes.isPackaged = true;
    process.env.VITE_DEV_SERVER_URL = 'http://attacker.example:8080/';
    process.env[WS_BINDING_ENV] = '1';
    await boot();
    const win = fakes.windows[0]! as unknown as {
      loadFile: ReturnType<typeof vi.fn>;
      loadURL: ReturnType<typeof vi.fn>;
      webContents: FakeContents;
    };
    expect(win.loadURL).not.toHaveBeenCalled();
    expect(win.loadFile).toHaveBeenCalledWith(expect.stringMatching(/dist[\\/]renderer[\\/]index\.html$/));
    // Give a lazily started binding the chance to appear: it must not.
    await new Promise((resolve) => setImmediate(resolve));
    expect(fakes.appListeners.has('will-quit')).toBe(false);
    const update = fakes.handlers.get(requestChannel('settings.update'))!;
    const attackerFrame = { ...win.webContents.mainFrame, url: 'http://attacker.example:8080/' };
    expect(
      await update({ sender: win.webContents, senderFrame: attackerFrame }, { playerName: 'Pwned' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'permission-denied' },
    });
    const ownFrame = win.webContents.mainFrame;
    expect(await update({ sender: win.webContents, senderFrame: ownFrame }, { playerName: 'Nova' })).toMatchObject({
      ok: true,
    });
  });
});

/** The labels and roles of the menu main/index.ts set, depth first. */
function menuEntries(): string[] {
  const menu = fakes.setApplicationMenu.mock.calls[0]![0] as { template: Electron.MenuItemConstructorOptions[] };
  const walk = (items: Electron.MenuItemConstructorOptions[]): string[] =>
    items.flatMap((item) => [
      ...(item.role ? [String(item.role)] : []),
      ...(item.label ? [item.label] : []),
      ...(Array.isArray(item.submenu) ? walk(item.submenu) : []),
    ]);
  return walk(menu.template);
}

const code = encode('192.168.1.20', 9000);

describe('main entry: the desktop shell', () => {
  it('a development run gets a menu with reload and developer tools', async () => {
    await boot();
    expect(menuEntries()).toEqual(expect.arrayContaining(['reload', 'toggleDevTools', 'copy', 'Open logs folder']));
  });

  it('a packaged app gets a menu without reload or developer tools, and no WebSocket binding', async () => {
    fakes.isPackaged = true;
    process.env[WS_BINDING_ENV] = '1';
    await boot();
    const entries = menuEntries();
    expect(entries).not.toContain('reload');
    expect(entries).not.toContain('toggleDevTools');
    expect(entries).toEqual(expect.arrayContaining(['paste', 'Network check', 'About LAN Party']));
    expect(fakes.appListeners.has('will-quit')).toBe(false);
  });

  it('a packaged app without an update feed never loads the updater', async () => {
    fakes.isPackaged = true;
    await boot();
    // A packaged app logs to its file only.
    const logFile = join(fakes.userDataDir, 'logs', 'main.log');
    await vi.waitFor(async () => expect(await readFile(logFile, 'utf8')).toContain('this build has no update feed'));
    expect(await request('app.updateStatus')).toEqual({ ok: true, value: { state: 'disabled' } });
  });

  it('registers the lanparty:// protocol', async () => {
    await boot();
    expect(fakes.setAsDefaultProtocolClient).toHaveBeenCalledWith('lanparty');
  });

  it('a link from macOS open-url is kept for the page, which gets it once', async () => {
    await boot();
    const [openUrl] = fakes.appListeners.get('open-url') ?? [];
    const event = { preventDefault: vi.fn() };
    openUrl!(event, `lanparty://join/${code.toLowerCase()}`);
    expect(event.preventDefault).toHaveBeenCalledOnce();
    expect(await request('app.pending')).toEqual({
      ok: true,
      value: { deepLink: { kind: 'join', code }, notice: null },
    });
    expect(await request('app.pending')).toEqual({ ok: true, value: { deepLink: null, notice: null } });
  });

  it('a second launch’s link goes to the listening page as an event; a bad one is dropped', async () => {
    await boot();
    await request('app.pending');
    const [secondInstance] = fakes.appListeners.get('second-instance') ?? [];
    secondInstance!({}, ['lan-party', 'lanparty://join/not-a-code'], '/', {});
    secondInstance!({}, ['lan-party', `lanparty://join/${code}`], '/', {});
    const send = fakes.windows[0]!.webContents.send;
    expect(send.mock.calls.filter(([channel]) => channel === 'lanParty:event:app.deepLink')).toEqual([
      ['lanParty:event:app.deepLink', { kind: 'join', code }],
    ]);
  });

  it('Help → Network check tells the page to open that screen', async () => {
    await boot();
    await request('app.pending');
    const menu = fakes.setApplicationMenu.mock.calls[0]![0] as { template: Electron.MenuItemConstructorOptions[] };
    const help = menu.template.find((item) => item.role === 'help')!.submenu as Electron.MenuItemConstructorOptions[];
    (help.find((item) => item.label === 'Network check')!.click as () => void)();
    expect(fakes.windows[0]!.webContents.send).toHaveBeenCalledWith('lanParty:event:app.openScreen', {
      screen: 'netcheck',
    });
  });

  it('a crashed renderer is reloaded and the reloaded page hears why', async () => {
    await boot();
    await request('app.pending');
    const win = fakes.windows[0]!;
    win.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 11 });
    expect(win.webContents.reload).toHaveBeenCalledOnce();
    win.webContents.emit('did-start-loading');
    expect(await request('app.pending')).toEqual({
      ok: true,
      value: { deepLink: null, notice: { kind: 'renderer-crashed' } },
    });
  });

  it('an unresponsive window offers Wait or Reload', async () => {
    fakes.showMessageBox.mockResolvedValueOnce({ response: 1 });
    await boot();
    const win = fakes.windows[0]!;
    win.emit('unresponsive');
    await vi.waitFor(() => expect(win.webContents.forcefullyCrashRenderer).toHaveBeenCalledOnce());
    expect(fakes.showMessageBox.mock.calls[0]![0]).toMatchObject({ buttons: ['Wait', 'Reload'] });
  });

  it('a main-process exception closes the backend, tells the player and exits 1', async () => {
    await boot();
    const [onException] = addedProcessListeners('uncaughtException');
    expect(addedProcessListeners('unhandledRejection')).toHaveLength(1);
    (onException as (error: Error) => void)(new Error('boom'));
    await vi.waitFor(() => expect(fakes.exit).toHaveBeenCalledExactlyOnceWith(1));
    expect(fakes.showErrorBox).toHaveBeenCalledOnce();
    expect(vi.mocked(console.error).mock.calls.flat()).toContain('main process: uncaught exception');
  });

  it('restores the saved window state; a window whose monitor is gone opens on the primary display', async () => {
    const saved = { version: 1, x: 2500, y: 200, width: 1300, height: 820, maximized: true };
    await writeFile(join(fakes.userDataDir, WINDOW_STATE_FILE_NAME), JSON.stringify(saved));
    await boot();
    // That monitor is gone: the window opens on the primary display, centred, maximised as it was left.
    expect(fakes.windows[0]!.options).toMatchObject({ x: 310, y: 110, width: 1300, height: 820, minWidth: 960 });
    expect(fakes.windows[0]!.maximize).toHaveBeenCalledOnce();
  });

  it('a damaged window-state file opens the default window', async () => {
    await writeFile(join(fakes.userDataDir, WINDOW_STATE_FILE_NAME), '{"version":1,"x":');
    await boot();
    expect(fakes.windows[0]!.options).toMatchObject({ width: 1100, height: 720 });
    expect(vi.mocked(console.warn).mock.calls.flat().join(' ')).toContain('not valid JSON');
  });

  it('quitting saves the window state', async () => {
    await boot();
    const [beforeQuit] = fakes.appListeners.get('before-quit') ?? [];
    beforeQuit!({ preventDefault: vi.fn() });
    await vi.waitFor(() => expect(fakes.quit).toHaveBeenCalledOnce());
    const written = JSON.parse(await readFile(join(fakes.userDataDir, WINDOW_STATE_FILE_NAME), 'utf8')) as unknown;
    expect(written).toEqual({ version: 1, x: 0, y: 0, width: 1100, height: 720, maximized: false });
  });
});
