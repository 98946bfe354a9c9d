import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestChannel } from '../../shared/ipc/channels';
import { requestNames } from '../../shared/ipc/names';
import { WS_BINDING_ENV } from '../../main/ipc/webSocketGuard';

// main/index.ts against a fake Electron: checks that every security measure is actually wired in.
const APP_FILE_URL = pathToFileURL(resolve(__dirname, '../../dist/renderer/index.html')).href;

interface Fakes {
  appListeners: Map<string, ((...args: unknown[]) => void)[]>;
  handlers: Map<string, (event: unknown, ...args: unknown[]) => unknown>;
  windows: { options: Electron.BrowserWindowConstructorOptions; webContents: FakeContents }[];
  session: Record<
    'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler',
    ReturnType<typeof vi.fn>
  >;
  enableSandbox: ReturnType<typeof vi.fn>;
  quit: ReturnType<typeof vi.fn>;
  userDataDir: string;
  nativeTheme: { themeSource: string };
}

interface FakeContents {
  mainFrame: { url: string; processId: number; routingId: number; detached: boolean };
  setWindowOpenHandler: ReturnType<typeof vi.fn>;
  on: ReturnType<typeof vi.fn>;
  send: ReturnType<typeof vi.fn>;
  isDestroyed(): boolean;
}

let fakes: Fakes;

function fakeContents(): FakeContents {
  return {
    mainFrame: { url: APP_FILE_URL, processId: 3, routingId: 1, detached: false },
    setWindowOpenHandler: vi.fn(),
    on: vi.fn(),
    send: vi.fn(),
    isDestroyed: () => false,
  };
}

function installElectronMock(): void {
  vi.doMock('electron', () => {
    const windows = fakes.windows;
    class BrowserWindow {
      readonly webContents = fakeContents();
      constructor(readonly options: Electron.BrowserWindowConstructorOptions) {
        windows.push(this);
      }
      static getAllWindows = () => windows;
      loadFile = vi.fn(() => Promise.resolve());
      loadURL = vi.fn(() => Promise.resolve());
      isDestroyed = () => false;
    }
    return {
      app: {
        enableSandbox: fakes.enableSandbox,
        on: (name: string, listener: (...args: unknown[]) => void) => {
          fakes.appListeners.set(name, [...(fakes.appListeners.get(name) ?? []), listener]);
        },
        whenReady: () => Promise.resolve(),
        requestSingleInstanceLock: () => true,
        getName: () => 'LAN Party',
        getVersion: () => '9.9.9',
        getPath: () => fakes.userDataDir,
        isPackaged: false,
        quit: fakes.quit,
      },
      BrowserWindow,
      nativeTheme: fakes.nativeTheme,
      dialog: { showSaveDialog: vi.fn() },
      session: { defaultSession: fakes.session },
      ipcMain: {
        handle: (channel: string, listener: (event: unknown, ...args: unknown[]) => unknown) =>
          fakes.handlers.set(channel, listener),
        removeHandler: (channel: string) => fakes.handlers.delete(channel),
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
    userDataDir: await mkdtemp(join(tmpdir(), 'lan-party-main-')),
    // Not what the (default) setting says, so the test sees main set it.
    nativeTheme: { themeSource: 'dark' },
  };
  delete process.env.VITE_DEV_SERVER_URL;
  delete process.env[WS_BINDING_ENV];
  vi.spyOn(console, 'info').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(async () => {
  for (const listener of fakes.appListeners.get('will-quit') ?? []) listener();
  vi.restoreAllMocks();
  vi.doUnmock('electron');
  delete process.env[WS_BINDING_ENV];
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

  it('starts the WebSocket binding in a dev run when the env var asks for it', async () => {
    process.env[WS_BINDING_ENV] = '1';
    await boot();
    await vi.waitFor(() => expect(fakes.appListeners.has('will-quit')).toBe(true));
    expect(vi.mocked(console.info).mock.calls.flat().join(' ')).toMatch(/#ws=\d+&secret=[\w-]{43}/);
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
    // The fake's getPath answers the temp folder for 'logs' too.
    const log = await readFile(join(fakes.userDataDir, 'main.log'), 'utf8');
    expect(log).toMatch(/\[error\] \(main\) renderer: uncaught error: boom \n {4}Error: boom\n$/);
    expect(consoleError).toHaveBeenCalledWith('[main]', 'renderer: uncaught error: boom', '\n    Error: boom');
  });
});
