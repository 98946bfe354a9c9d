import type { HandlerDetails, WebContents, WindowOpenHandlerResponse } from 'electron';
import type { Logger } from '../../base/logger';

/** setWindowOpenHandler handler: the app never opens new windows (window.open, target=_blank, middle-click). */
export function denyWindowOpen(details: Pick<HandlerDetails, 'url'>, logger: Logger): WindowOpenHandlerResponse {
  logger.warn(`blocked a new window for ${details.url}`);
  return { action: 'deny' };
}

/** will-navigate handler: the single-page app never leaves its page, so every navigation is cancelled. */
export function preventNavigation(event: { preventDefault(): void; readonly url: string }, logger: Logger): void {
  event.preventDefault();
  logger.warn(`blocked navigation to ${event.url}`);
}

/** will-attach-webview handler: the app has no <webview>; refuse any that appears. */
export function preventWebviewAttach(event: { preventDefault(): void }, logger: Logger): void {
  event.preventDefault();
  logger.warn('blocked a <webview>');
}

/** The webContents surface the guards use; Electron's WebContents satisfies it. */
export type GuardableContents = Pick<WebContents, 'setWindowOpenHandler' | 'on'>;

/** Installs all three guards on a webContents (every one the app creates, via web-contents-created). */
export function installNavigationGuards(contents: GuardableContents, logger: Logger): void {
  contents.setWindowOpenHandler((details) => denyWindowOpen(details, logger));
  contents.on('will-navigate', (event) => preventNavigation(event, logger));
  contents.on('will-attach-webview', (event) => preventWebviewAttach(event, logger));
}
