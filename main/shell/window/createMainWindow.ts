import { BrowserWindow } from 'electron';
import type { AppLocation } from './appUrl';
import type { Logger } from '../../base/logger';
import { installNavigationGuards } from './navigationGuards';
import { secureWebPreferences } from './secureWebPreferences';
import { DEFAULT_WINDOW_SIZE, MIN_WINDOW_SIZE, type Rect } from './windowBounds';

/** What the window needs: the built preload, where the page lives, and a logger for blocked actions. */
export interface MainWindowOptions {
  readonly preloadPath: string;
  readonly location: AppLocation;
  readonly logger: Logger;
  /** Where to open (restored and fitted to the displays, windowBounds.ts); default the default size, centred. */
  readonly bounds?: Rect;
  /** Open maximised, as the player left it. */
  readonly maximized?: boolean;
}

/** Opens the app window: sandboxed renderer, our preload, no navigation away and no new windows. */
export function createMainWindow({
  preloadPath,
  location,
  logger,
  bounds,
  maximized,
}: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    ...(bounds ?? DEFAULT_WINDOW_SIZE),
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    backgroundColor: '#0b0d17',
    title: 'LAN Party',
    webPreferences: secureWebPreferences(preloadPath),
  });
  if (maximized) win.maximize();
  installNavigationGuards(win.webContents, logger);
  const loaded = location.kind === 'url' ? win.loadURL(location.url) : win.loadFile(location.indexPath);
  loaded.catch((error: unknown) => logger.error('failed to load the renderer', error));
  return win;
}
