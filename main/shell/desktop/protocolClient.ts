import { resolve } from 'node:path';
import type { App } from 'electron';
import { DEEP_LINK_SCHEME } from '../../../shared/deepLink';
import type { Logger } from '../../base/logger';

/** The part of Electron's `app` used here. */
export type ProtocolApp = Pick<App, 'setAsDefaultProtocolClient'>;

/** The facts about this process that decide how to register (Node's `process` satisfies it). */
export interface ProtocolProcess {
  readonly platform: string;
  /** True when running as `electron path/to/app` (development), not as the packaged executable. */
  readonly defaultApp?: boolean;
  readonly execPath: string;
  readonly argv: readonly string[];
}

/**
 * Makes this app the handler of `lanparty://` links. A development run on Windows registers the Electron binary
 * with the app's path as its argument (else a click would start bare Electron); elsewhere the plain call registers
 * the running app (on macOS the packaged Info.plist, from electron-builder's `protocols`, is what really counts).
 * Returns whether the OS accepted it; a refusal is logged, never thrown.
 */
export function registerProtocolClient(app: ProtocolApp, proc: ProtocolProcess, logger: Logger): boolean {
  let registered: boolean;
  try {
    if (proc.platform === 'win32' && proc.defaultApp) {
      const appPath = proc.argv[1];
      if (appPath === undefined) {
        logger.warn('not registering lanparty:// links: a development run without an app path');
        return false;
      }
      registered = app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, proc.execPath, [resolve(appPath)]);
    } else {
      registered = app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
    }
  } catch (error) {
    logger.warn('registering lanparty:// links failed', error);
    return false;
  }
  if (!registered) logger.warn('the OS did not make LAN Party the handler of lanparty:// links');
  return registered;
}
