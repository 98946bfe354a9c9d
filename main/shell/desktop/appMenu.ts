import type { MenuItemConstructorOptions } from 'electron';

/** What the menu's own items do; the Electron entry supplies them. */
export interface AppMenuActions {
  openLogsFolder(): void;
  openNetworkCheck(): void;
  showAbout(): void;
}

/** Options of {@link appMenuTemplate}. */
export interface AppMenuOptions {
  readonly appName: string;
  readonly platform: string;
  /** A packaged app gets no reload and no developer tools: players have no use for them and can lose state. */
  readonly isPackaged: boolean;
  readonly actions: AppMenuActions;
}

const separator: MenuItemConstructorOptions = { type: 'separator' };

/**
 * The application menu: the standard macOS app menu on a Mac, Edit with the text roles (so copy and paste
 * work in inputs and their shortcuts exist at all), View with reload and developer tools only in development,
 * Window, and Help (logs folder, network check, about). Pure data, so tests read it without Electron.
 */
export function appMenuTemplate({
  appName,
  platform,
  isPackaged,
  actions,
}: AppMenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const about: MenuItemConstructorOptions = { label: `About ${appName}`, click: () => actions.showAbout() };
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: appName,
      submenu: [
        about,
        separator,
        { role: 'services' },
        separator,
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        separator,
        { role: 'quit' },
      ],
    });
  }
  template.push(
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        separator,
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
        { role: 'delete' },
        separator,
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        ...(isPackaged
          ? []
          : [
              { role: 'reload' } as const,
              { role: 'forceReload' } as const,
              { role: 'toggleDevTools' } as const,
              separator,
            ]),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        separator,
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'Open logs folder', click: () => actions.openLogsFolder() },
        { label: 'Network check', click: () => actions.openNetworkCheck() },
        separator,
        about,
      ],
    },
  );
  return template;
}
