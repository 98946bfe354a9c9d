import { join } from 'node:path';
import { app, BrowserWindow, dialog, Menu, nativeTheme, Notification, screen, session } from 'electron';
import { formatBindingHash } from '../shared/ipc/bindingHash';
import { createAppUrlPolicy, resolveAppLocation } from './shell/window/appUrl';
import { createBackend, type Backend } from './createBackend';
import { createMainWindow } from './shell/window/createMainWindow';
import { consoleLogger } from './base/logger';
import { createFileLog, LOG_FILE_NAME } from './shell/fileLogger';
import { followThemeSetting } from './shell/desktop/followTheme';
import { saveDialogChooser } from './shell/desktop/saveDialog';
import { installNavigationGuards } from './shell/window/navigationGuards';
import { applyPermissionPolicy } from './shell/window/permissions';
import { bindElectronIpc } from './ipc/electronBinding';
import { isTrustedSender } from './ipc/senderPolicy';
import { shouldEnableWebSocketBinding } from './ipc/webSocketGuard';
import { readOsUserName } from './settings/osUserName';
import { claimSingleInstance, revealWindow } from './shell/desktop/singleInstance';
import { aboutDialogText } from './shell/desktop/aboutDialog';
import { appMenuTemplate } from './shell/desktop/appMenu';
import { createDeepLinkRouter } from './shell/desktop/deepLinkRouter';
import { createDesktopNotifier } from './shell/desktop/desktopNotifier';
import { installMainProcessGuard } from './shell/mainProcessGuard';
import { openLogsFolder } from './shell/desktop/openLogsFolder';
import { registerProtocolClient } from './shell/desktop/protocolClient';
import { installRendererRecovery } from './shell/window/rendererRecovery';
import { UPDATE_FEED_URL } from './shell/desktop/updateFeed';
import { startUpdates } from './shell/desktop/updates';
import { fitWindowBounds, type Rect } from './shell/window/windowBounds';
import { loadWindowState, saveWindowState, type WindowState } from './shell/window/windowStateFile';
import { trackWindowState, type WindowStateTracker } from './shell/window/windowStateTracker';

// Electron entry: security policy first, then the backend and its IPC binding, then one window.
// A packaged app has no console: logs go to a rotating file in the logs folder (mirrored to the console in dev).
const logsDir = app.getPath('logs');
const fileLog = createFileLog({
  filePath: join(logsDir, LOG_FILE_NAME),
  ...(app.isPackaged ? {} : { mirror: consoleLogger }),
});
const logger = fileLog.logger('main');
// The packaged app ignores VITE_DEV_SERVER_URL (see resolveAppLocation) and never serves the dev bindings.
const location = resolveAppLocation(
  process.env.VITE_DEV_SERVER_URL,
  join(__dirname, '../dist/renderer/index.html'),
  app.isPackaged,
);
const isAppUrl = createAppUrlPolicy(location);
let mainWindow: BrowserWindow | null = null;
// lanparty://join/<code> links, kept until the backend can show them.
const deepLinks = createDeepLinkRouter(logger);
// A second launch focuses the running window instead of opening another app (and another port); on Windows and
// Linux a clicked link arrives as that launch's argument.
const isPrimaryInstance = claimSingleInstance(
  app,
  (argv) => {
    deepLinks.handleArgv(argv);
    revealWindow(mainWindow);
  },
  (error) => logger.error('could not focus the window', error),
);

if (isPrimaryInstance) {
  registerProtocolClient(app, process, logger);
  // macOS hands links over here, also before ready when a link launched the app.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    deepLinks.handle(url);
    revealWindow(mainWindow);
  });
  // Windows and Linux start the app with the clicked link as an argument.
  deepLinks.handleArgv(process.argv);
}

// A main-process failure closes the room for its guests, tells the player and exits instead of hanging.
let closeBackend = (): Promise<void> => Promise.resolve();
installMainProcessGuard({
  process,
  logger,
  closeRoom: () => closeBackend(),
  tellUser: (message) => dialog.showErrorBox('LAN Party', message),
  exit: (code) => app.exit(code),
});

app.enableSandbox();
// Every webContents (ours and any the page might try to create) gets the navigation guards.
app.on('web-contents-created', (_event, contents) => installNavigationGuards(contents, logger));

/** The work areas of all displays, the primary one first (where a window goes when its monitor is gone). */
function workAreas(): Rect[] {
  const primary = screen.getPrimaryDisplay();
  return [primary.workArea, ...screen.getAllDisplays().flatMap((d) => (d.id === primary.id ? [] : [d.workArea]))];
}

function showAbout(backend: Backend): void {
  const view = backend.lobby.view();
  const text = aboutDialogText({
    name: app.getName(),
    version: app.getVersion(),
    platform: process.platform,
    arch: process.arch,
    versions: process.versions,
    ports: {
      discovery: backend.network.discoveryPort,
      game: backend.network.defaultGamePort,
      room: view.role === 'host' ? view.port : null,
    },
  });
  void dialog.showMessageBox({ type: 'info', buttons: ['OK'], ...text }).catch((error: unknown) => {
    logger.warn('could not show the About box', error);
  });
}

/** Desktop notifications about the room while the window is in the background (the `notifications` setting). */
function notifyAboutLobby(backend: Backend): void {
  const notifier = createDesktopNotifier(
    {
      isFocused: () => mainWindow !== null && !mainWindow.isDestroyed() && mainWindow.isFocused(),
      enabled: async () => (await backend.settings.get()).notifications,
      show(title, body) {
        if (!Notification.isSupported()) return;
        const notification = new Notification({ title, body });
        notification.on('click', () => revealWindow(mainWindow));
        notification.show();
      },
      attention() {
        if (process.platform === 'darwin') app.dock?.bounce('informational');
        else if (mainWindow && !mainWindow.isDestroyed()) mainWindow.flashFrame(true);
      },
    },
    backend.lobby.view(),
    logger,
  );
  backend.lobby.onChange(notifier);
}

async function start(): Promise<void> {
  // Everything denied except writing a room code to the clipboard, from our own page's main frame.
  applyPermissionPolicy(session.defaultSession, logger, isAppUrl);
  const userDataDir = app.getPath('userData');
  const backend = createBackend({
    app: { name: app.getName(), version: app.getVersion(), platform: process.platform },
    userDataDir,
    osUserName: readOsUserName(),
    validateOutputs: !app.isPackaged,
    logger,
    logsDir,
    chooseSavePath: saveDialogChooser(dialog, () => mainWindow, app.getPath('downloads')),
  });
  followThemeSetting(nativeTheme, backend.settings, logger);
  closeBackend = () => backend.close();
  deepLinks.connect((link) => backend.shell.deliverDeepLink(link));
  let windowState: WindowState | null = await loadWindowState(userDataDir, logger);
  let tracker: WindowStateTracker | null = null;
  // Quitting closes an open room first, so guests hear "host closed" rather than a timeout, and saves the window.
  let readyToQuit = false;
  // A downloaded update installs on quit only once it has hashed right again (main/shell/desktop/updates.ts).
  let updateQuitCheck: (() => Promise<void>) | null = null;
  app.on('before-quit', (event) => {
    if (readyToQuit) return;
    event.preventDefault();
    void Promise.allSettled([backend.close(), tracker?.flush(), updateQuitCheck?.()]).finally(() => {
      readyToQuit = true;
      app.quit();
    });
  });
  bindElectronIpc({
    gateway: backend.gateway,
    isTrustedSender: (event) => isTrustedSender(event, mainWindow, isAppUrl),
    eventTargets: () => (mainWindow && !mainWindow.isDestroyed() ? [mainWindow.webContents] : []),
    logger,
  });
  if (shouldEnableWebSocketBinding({ env: process.env, argv: process.argv, isPackaged: app.isPackaged })) {
    // Loaded lazily: the packaged app never even evaluates the WebSocket code.
    const { createBindingSecret, startWebSocketBinding } = await import('./ipc/webSocketBinding');
    // Only the dev server's page may connect (a file:// page has no origin worth trusting).
    const allowedOrigins = location.kind === 'url' ? [new URL(location.url).origin] : [];
    const binding = await startWebSocketBinding({
      gateway: backend.gateway,
      secret: createBindingSecret(),
      allowedOrigins,
      logger,
    });
    // The hash holds the binding's secret: to the terminal only, never into main.log.
    logger.info(`WebSocket binding for browsers on port ${binding.location.port} (its secret is on the terminal)`);
    process.stdout.write(
      `WebSocket binding for browsers: append ${formatBindingHash(binding.location)} to the page URL\n`,
    );
    app.on('will-quit', () => void binding.close());
  }
  // Notifications on Windows are attributed to the app by this id (electron-builder's appId).
  if (process.platform === 'win32') app.setAppUserModelId('net.lanparty.app');
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate({
        appName: app.getName(),
        platform: process.platform,
        isPackaged: app.isPackaged,
        actions: {
          openLogsFolder: () => void openLogsFolder(logger),
          openNetworkCheck: () => {
            revealWindow(mainWindow);
            backend.shell.showScreen('netcheck');
          },
          showAbout: () => showAbout(backend),
        },
      }),
    ),
  );
  const openWindow = (): void => {
    const win = createMainWindow({
      preloadPath: join(__dirname, 'preload.js'),
      location,
      logger,
      bounds: fitWindowBounds(windowState, workAreas()),
      maximized: windowState?.maximized ?? false,
    });
    mainWindow = win;
    tracker = trackWindowState(win, {
      save: (state) => {
        // A window opened later (macOS, from the dock) starts where this one was last.
        windowState = state;
        return saveWindowState(userDataDir, state);
      },
      logger,
    });
    // The page is (re)loading: links and notices wait for the new page to ask for them.
    win.webContents.on('did-start-loading', () => backend.shell.pageGone());
    installRendererRecovery(win, {
      logger,
      dialog,
      onReload: (kind) => {
        backend.shell.pageGone();
        backend.shell.notice({ kind });
      },
      quit: () => app.quit(),
    });
    win.on('focus', () => win.flashFrame(false));
    win.on('closed', () => {
      backend.shell.pageGone();
      if (mainWindow === win) mainWindow = null;
    });
  };
  openWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });
  notifyAboutLobby(backend);
  void startUpdates({
    isPackaged: app.isPackaged,
    feedUrl: UPDATE_FEED_URL,
    loadUpdater: async () => (await import('electron-updater')).autoUpdater,
    setStatus: (status) => backend.shell.setUpdateStatus(status),
    setInstaller: (install) => backend.shell.setInstaller(install),
    beforeInstall: () => backend.close(),
    setQuitCheck: (check) => (updateQuitCheck = check),
    logger,
  }).catch((error: unknown) => logger.warn('could not start the updater', error));
}

if (isPrimaryInstance) {
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      logger.error('startup failed', error);
      app.quit();
    });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
