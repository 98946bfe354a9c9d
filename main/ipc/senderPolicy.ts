import type { WebFrameMain } from 'electron';

/** The frame facts the policy reads; Electron's WebFrameMain satisfies it. */
export type TrustFrame = Pick<WebFrameMain, 'url' | 'processId' | 'routingId' | 'detached'>;

/** The parts of an IPC event the policy reads; Electron's IpcMainInvokeEvent satisfies it. */
export interface SenderLike {
  readonly sender: unknown;
  readonly senderFrame: TrustFrame | null;
}

/** The parts of our window the policy reads; Electron's BrowserWindow satisfies it. */
export interface TrustedWindowLike {
  isDestroyed(): boolean;
  readonly webContents: { readonly mainFrame: TrustFrame };
}

/**
 * Whether an IPC message comes from our window's main frame showing our app: not a subframe, not another
 * window, not a page that navigated elsewhere. Every request passes this before the gateway sees it.
 */
export function isTrustedSender(
  event: SenderLike,
  window: TrustedWindowLike | null,
  isAppUrl: (url: string) => boolean,
): boolean {
  if (!window || window.isDestroyed()) return false;
  if (event.sender !== window.webContents) return false;
  const frame = event.senderFrame;
  if (!frame || frame.detached) return false;
  const main = window.webContents.mainFrame;
  const sameFrame = frame === main || (frame.processId === main.processId && frame.routingId === main.routingId);
  if (!sameFrame) return false;
  return isAppUrl(frame.url);
}
