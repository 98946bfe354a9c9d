import type { App, BrowserWindow } from 'electron';

/** The part of Electron's `app` used here; `app` itself satisfies it. */
export type SingleInstanceApp = Pick<App, 'requestSingleInstanceLock' | 'quit' | 'on'>;

/** The part of a BrowserWindow {@link revealWindow} uses. */
export type RevealableWindow = Pick<
  BrowserWindow,
  'isDestroyed' | 'isMinimized' | 'restore' | 'isVisible' | 'show' | 'focus'
>;

/**
 * Keeps LAN Party to one instance per user: two copies would fight over the discovery port and the player's
 * settings. In a second instance this calls `app.quit()` and returns false, and the caller must skip its
 * startup; in the first it returns true and calls `onLaunch` with the new launch's command line whenever
 * someone launches the app again (on Windows and Linux a clicked `lanparty://` link arrives that way).
 * A throwing `onLaunch` is reported to `onError`, never left to crash the main process.
 */
export function claimSingleInstance(
  app: SingleInstanceApp,
  onLaunch: (argv: readonly string[]) => void,
  onError: (error: unknown) => void = (error) => console.error('[single-instance] could not focus the window', error),
): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', (_event, argv) => {
    try {
      onLaunch(Array.isArray(argv) ? argv.filter((arg): arg is string => typeof arg === 'string') : []);
    } catch (error) {
      onError(error);
    }
  });
  return true;
}

/** Brings a window to the front: restored if minimised, shown if hidden. Does nothing without a live window. */
export function revealWindow(win: RevealableWindow | null | undefined): void {
  if (!win || win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  if (!win.isVisible()) win.show();
  win.focus();
}
