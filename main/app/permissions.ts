import type { Session } from 'electron';
import type { Logger } from './logger';

/** The session surface used here; Electron's Session satisfies it. */
export type PermissionSession = Pick<
  Session,
  'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'
>;

/**
 * Denies every permission (camera, mic, geolocation, notifications, HID/USB/serial, openExternal...).
 * The app needs none today; a feature that does should add a narrow allow-list here.
 */
export function denyAllPermissions(session: PermissionSession, logger: Logger): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    logger.warn(`denied permission request: ${permission}`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
