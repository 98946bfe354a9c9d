import type { AppUpdater } from 'electron-updater';
import type { UpdateStatus } from '../../../shared/ipc/schemas/shell';
import type { Logger } from '../../base/logger';

/** The updater surface used; electron-updater's `autoUpdater` satisfies it (tests pass a fake). */
export type Updater = Pick<AppUpdater, 'on' | 'checkForUpdates' | 'quitAndInstall' | 'autoDownload' | 'logger'>;

/** Options of {@link startUpdates}. */
export interface UpdateOptions {
  readonly isPackaged: boolean;
  /** The generic update feed this build was made with (LAN_PARTY_UPDATE_URL at build time); '' for none. */
  readonly feedUrl: string;
  /** Loads electron-updater (lazily, so development runs and feedless builds never evaluate it). */
  readonly loadUpdater: () => Promise<Updater>;
  /** Where the status goes (the shell service, which tells the page). */
  readonly setStatus: (status: UpdateStatus) => void;
  /** Registers the restart-and-install action (`app.installUpdate`). */
  readonly setInstaller: (install: () => Promise<void>) => void;
  /** Runs before the restart: close the room so guests hear it closed. */
  readonly beforeInstall: () => Promise<void>;
  readonly logger: Logger;
}

/** Why updates are off, or that a check started. */
export type UpdateStart = 'development' | 'no-feed' | 'checking';

/**
 * Wires the updater: only a packaged build with a feed checks, once at start; a newer version downloads in the
 * background and is then offered as "Restart to update" (and installed on the next quit otherwise). A failed
 * check is logged and leaves the app as it is. The feed itself is the `publish` entry electron-builder wrote
 * into the app (app-update.yml) from the same LAN_PARTY_UPDATE_URL.
 */
export async function startUpdates(options: UpdateOptions): Promise<UpdateStart> {
  const { logger } = options;
  if (!options.isPackaged) {
    logger.info('updates off: a development run');
    return 'development';
  }
  if (options.feedUrl.trim() === '') {
    logger.info('updates off: this build has no update feed (set LAN_PARTY_UPDATE_URL when building)');
    return 'no-feed';
  }
  const updater = await options.loadUpdater();
  updater.autoDownload = true;
  updater.logger = {
    info: (message?: unknown) => logger.info(`updater: ${String(message)}`),
    warn: (message?: unknown) => logger.warn(`updater: ${String(message)}`),
    error: (message?: unknown) => logger.error(`updater: ${String(message)}`),
  };
  let ready = false;
  updater.on('update-available', (info) => options.setStatus({ state: 'downloading', version: info.version }));
  updater.on('update-not-available', () => options.setStatus({ state: 'idle' }));
  updater.on('update-downloaded', (event) => {
    ready = true;
    logger.info(`update ${event.version} downloaded; offering a restart`);
    options.setStatus({ state: 'ready', version: event.version });
  });
  updater.on('error', (error) => {
    logger.warn('update check or download failed', error);
    if (!ready) options.setStatus({ state: 'idle' });
  });
  options.setInstaller(async () => {
    await options.beforeInstall();
    updater.quitAndInstall();
  });
  options.setStatus({ state: 'idle' });
  try {
    await updater.checkForUpdates();
  } catch (error) {
    logger.warn('update check failed', error);
  }
  return 'checking';
}
