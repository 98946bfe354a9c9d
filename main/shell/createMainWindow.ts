import { BrowserWindow } from 'electron';
import type { AppLocation } from './appUrl';
import type { Logger } from '../base/logger';
import { installNavigationGuards } from './navigationGuards';
import { secureWebPreferences } from './secureWebPreferences';

/** What the window needs: the built preload, where the page lives, and a logger for blocked actions. */
export interface MainWindowOptions {
  readonly preloadPath: string;
  readonly location: AppLocation;
  readonly logger: Logger;
}

/** Opens the app window: sandboxed renderer, our preload, no navigation away and no new windows. */
export function createMainWindow({ preloadPath, location, logger }: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1100,
    height: 720,
    minWidth: 900,
    minHeight: 600,
    backgroundColor: '#0b0d17',
    title: 'LAN Party',
    webPreferences: secureWebPreferences(preloadPath),
  });
  installNavigationGuards(win.webContents, logger);
  const loaded = location.kind === 'url' ? win.loadURL(location.url) : win.loadFile(location.indexPath);
  loaded.catch((error: unknown) => logger.error('failed to load the renderer', error));
  return win;
}
