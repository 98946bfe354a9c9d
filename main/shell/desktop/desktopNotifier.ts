import type { LobbyView } from '../../../shared/ipc/schemas/lobby';
import type { Logger } from '../../base/logger';
import { lobbyNotices, noticeText } from './lobbyNotices';

/** What the notifier needs from the shell; the Electron entry builds it from Notification, the window and app.dock. */
export interface NotifierPorts {
  /** Whether the player is looking at the window now (then nothing is shown). */
  isFocused(): boolean;
  /** Whether the player wants notifications (the `notifications` setting). */
  enabled(): Promise<boolean>;
  /** Shows one notification (Electron's Notification). */
  show(title: string, body: string): void;
  /** Draws attention to the app: taskbar flash on Windows and Linux, dock bounce on macOS. */
  attention(): void;
}

/**
 * Follows the lobby and, while the window is not focused and notifications are on, shows one notification per
 * change worth it (lobbyNotices.ts) and asks for attention once per batch. Returns the lobby listener.
 */
export function createDesktopNotifier(
  ports: NotifierPorts,
  initial: LobbyView,
  logger: Logger,
): (view: LobbyView) => void {
  let previous = initial;
  return (view) => {
    const notices = lobbyNotices(previous, view);
    previous = view;
    if (notices.length === 0 || ports.isFocused()) return;
    const roomName = view.state?.roomName ?? 'the room';
    void ports
      .enabled()
      .then((enabled) => {
        if (!enabled) return;
        for (const notice of notices) {
          const { title, body } = noticeText(notice, roomName);
          ports.show(title, body);
        }
        ports.attention();
      })
      .catch((error: unknown) => logger.warn('could not show a notification', error));
  };
}
