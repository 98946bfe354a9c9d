import { join } from 'node:path';
import { app, BrowserWindow, dialog, nativeTheme, session } from 'electron';
import { formatBindingHash } from '../shared/ipc/bindingHash';
import { createAppUrlPolicy, resolveAppLocation } from './shell/appUrl';
import { createBackend } from './createBackend';
import { createMainWindow } from './shell/createMainWindow';
import { consoleLogger } from './base/logger';
import { createFileLog, LOG_FILE_NAME } from './shell/fileLogger';
import { followThemeSetting } from './shell/followTheme';
import { saveDialogChooser } from './shell/saveDialog';
import { installNavigationGuards } from './shell/navigationGuards';
import { applyPermissionPolicy } from './shell/permissions';
import { createBindingSecret } from './ipc/bindingSecret';
import { bindElectronIpc } from './ipc/electronBinding';
import { isTrustedSender } from './ipc/senderPolicy';
import { shouldEnableWebSocketBinding } from './ipc/webSocketGuard';
import { readOsUserName } from './settings/osUserName';
import { claimSingleInstance, revealWindow } from './shell/singleInstance';

// Electron entry: security policy first, then the backend and its IPC binding, then one window.
// A packaged app has no console: logs go to a rotating file in the logs folder (mirrored to the console in dev).
const logsDir = app.getPath('logs');
const fileLog = createFileLog({
  filePath: join(logsDir, LOG_FILE_NAME),
  ...(app.isPackaged ? {} : { mirror: consoleLogger }),
});
const logger = fileLog.logger('main');
const location = resolveAppLocation(process.env.VITE_DEV_SERVER_URL, join(__dirname, '../dist/renderer/index.html'));
const isAppUrl = createAppUrlPolicy(location);
let mainWindow: BrowserWindow | null = null;
// A second launch focuses the running window instead of opening another app (and another port).
const isPrimaryInstance = claimSingleInstance(
  app,
  () => revealWindow(mainWindow),
  (error) => logger.error('could not focus the window', error),
);

app.enableSandbox();
// Every webContents (ours and any the page might try to create) gets the navigation guards.
app.on('web-contents-created', (_event, contents) => installNavigationGuards(contents, logger));

async function start(): Promise<void> {
  // Everything denied except writing a room code to the clipboard, from our own page's main frame.
  applyPermissionPolicy(session.defaultSession, logger, isAppUrl);
  const backend = createBackend({
    app: { name: app.getName(), version: app.getVersion(), platform: process.platform },
    userDataDir: app.getPath('userData'),
    osUserName: readOsUserName(),
    validateOutputs: !app.isPackaged,
    logger,
    logsDir,
    chooseSavePath: saveDialogChooser(dialog, () => mainWindow, app.getPath('downloads')),
  });
  followThemeSetting(nativeTheme, backend.settings, logger);
  // Quitting closes an open room first, so guests hear "host closed" rather than a timeout.
  let roomClosed = false;
  app.on('before-quit', (event) => {
    if (roomClosed) return;
    event.preventDefault();
    void backend.close().finally(() => {
      roomClosed = true;
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
    const { startWebSocketBinding } = await import('./ipc/webSocketBinding');
    const binding = await startWebSocketBinding({ gateway: backend.gateway, secret: createBindingSecret(), logger });
    logger.info(`WebSocket binding for browsers: append ${formatBindingHash(binding.location)} to the page URL`);
    app.on('will-quit', () => void binding.close());
  }
  const openWindow = (): void => {
    mainWindow = createMainWindow({ preloadPath: join(__dirname, 'preload.js'), location, logger });
  };
  openWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });
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
