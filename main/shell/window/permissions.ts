import type { Session } from 'electron';
import type { Logger } from '../../base/logger';

/** The session surface used here; Electron's Session satisfies it. */
export type PermissionSession = Pick<
  Session,
  'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'
>;

/**
 * The only permission the app uses: writing plain text to the clipboard (the room's Copy button). Sanitized
 * write cannot read the clipboard or put anything but sanitized data on it.
 */
export const ALLOWED_PERMISSIONS: readonly string[] = ['clipboard-sanitized-write'];

/** Whether a permission is allowed for a frame: an allowed permission, asked by our app's page in the main frame. */
export function isPermissionAllowed(
  permission: string,
  frame: { readonly requestingUrl?: string | undefined; readonly isMainFrame?: boolean | undefined },
  isAppUrl: (url: string) => boolean,
): boolean {
  return (
    ALLOWED_PERMISSIONS.includes(permission) &&
    frame.isMainFrame === true &&
    typeof frame.requestingUrl === 'string' &&
    isAppUrl(frame.requestingUrl)
  );
}

/**
 * Denies every permission (camera, mic, geolocation, notifications, HID/USB/serial, openExternal, clipboard
 * read...) except {@link ALLOWED_PERMISSIONS} for the app's own page (`isAppUrl`, from appUrl.ts).
 */
export function applyPermissionPolicy(
  session: PermissionSession,
  logger: Logger,
  isAppUrl: (url: string) => boolean,
): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const allowed = isPermissionAllowed(permission, details ?? {}, isAppUrl);
    if (!allowed) logger.warn(`denied permission request: ${permission}`);
    callback(allowed);
  });
  session.setPermissionCheckHandler((_contents, permission, _origin, details) =>
    isPermissionAllowed(permission, details ?? {}, isAppUrl),
  );
  session.setDevicePermissionHandler(() => false);
}

/** Denies every permission, the clipboard included (the room's Copy button then falls back to selecting). */
export function denyAllPermissions(session: PermissionSession, logger: Logger): void {
  applyPermissionPolicy(session, logger, () => false);
}
