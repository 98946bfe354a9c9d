import type { MessageBoxOptions, RenderProcessGoneDetails } from 'electron';
import type { ShellNotice } from '../../../shared/ipc/schemas/shell';
import type { Logger } from '../../base/logger';
import { systemScheduler, type Scheduler } from '../../base/scheduler';

/** The window surface recovery uses; Electron's BrowserWindow satisfies it. */
export interface RecoveryWindow {
  isDestroyed(): boolean;
  on(event: 'unresponsive', listener: () => void): unknown;
  readonly webContents: {
    on(event: 'render-process-gone', listener: (event: unknown, details: RenderProcessGoneDetails) => void): unknown;
    reload(): void;
    forcefullyCrashRenderer(): void;
  };
}

/** Options of {@link installRendererRecovery}. */
export interface RecoveryOptions {
  readonly logger: Logger;
  /** Electron's dialog (only the promise form of showMessageBox is used). */
  readonly dialog: { showMessageBox(options: MessageBoxOptions): Promise<{ response: number }> };
  /** Called just before the page reloads after a crash or hang, to tell the player once it is back. */
  readonly onReload: (kind: ShellNotice['kind']) => void;
  readonly quit: () => void;
  /** Its clock counts the reloads within `windowMs`; default real time. */
  readonly scheduler?: Pick<Scheduler, 'now'>;
  /** Reloads allowed within `windowMs` before asking instead (a page that crashes on load would loop). Default 3. */
  readonly maxReloads?: number;
  /** Default 60 s. */
  readonly windowMs?: number;
}

const WAIT = 0;
const RELOAD = 1;

/**
 * Recovers the window's page: a renderer that crashed (or was killed) is reloaded and the player told why; a
 * hung one offers Wait or Reload. The room lives in main, so a reload loses nothing. After `maxReloads` crashes
 * within `windowMs` it asks (Reload or Quit) instead of reloading forever. Returns nothing; never throws.
 */
export function installRendererRecovery(win: RecoveryWindow, options: RecoveryOptions): void {
  const { logger, dialog } = options;
  const clock = options.scheduler ?? systemScheduler;
  const maxReloads = options.maxReloads ?? 3;
  const windowMs = options.windowMs ?? 60_000;
  const reloads: number[] = [];
  let killedForHang = false;
  let asking = false;

  const ask = async (box: MessageBoxOptions): Promise<number | null> => {
    if (asking) return null;
    asking = true;
    try {
      return (await dialog.showMessageBox(box)).response;
    } catch (error) {
      logger.error('could not show the recovery dialog', error);
      return null;
    } finally {
      asking = false;
    }
  };

  const reload = (kind: ShellNotice['kind']): void => {
    if (win.isDestroyed()) return;
    reloads.push(clock.now());
    options.onReload(kind);
    win.webContents.reload();
  };

  win.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit' || win.isDestroyed()) return;
    const kind: ShellNotice['kind'] = killedForHang ? 'renderer-hung' : 'renderer-crashed';
    killedForHang = false;
    logger.error(`the window's renderer is gone (${details.reason}, exit code ${details.exitCode}); reloading it`);
    while (reloads.length > 0 && clock.now() - (reloads[0] ?? 0) > windowMs) reloads.shift();
    if (reloads.length < maxReloads) return reload(kind);
    void ask({
      type: 'error',
      title: 'LAN Party',
      message: 'The LAN Party window keeps crashing.',
      detail: 'Reload it once more, or quit. The log folder (Help → Open logs folder) has the details.',
      buttons: ['Reload', 'Quit'],
      defaultId: 0,
      cancelId: 1,
      noLink: true,
    }).then((response) => {
      if (response === 0) reload(kind);
      else if (response === 1) options.quit();
    });
  });

  win.on('unresponsive', () => {
    logger.warn('the window stopped responding');
    void ask({
      type: 'warning',
      title: 'LAN Party',
      message: 'The LAN Party window is not responding.',
      detail: 'Wait for it, or reload it. Reloading keeps your room and your settings.',
      buttons: ['Wait', 'Reload'],
      defaultId: WAIT,
      cancelId: WAIT,
      noLink: true,
    }).then((response) => {
      if (response !== RELOAD || win.isDestroyed()) return;
      // Killing the hung renderer brings render-process-gone, whose handler reloads (one reload path).
      killedForHang = true;
      win.webContents.forcefullyCrashRenderer();
    });
  });
}
