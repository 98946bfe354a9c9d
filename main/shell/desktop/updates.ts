import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { AppUpdater, UpdateInfo } from 'electron-updater';
import type { UpdateStatus } from '../../../shared/ipc/schemas/shell';
import type { Logger } from '../../base/logger';
import { systemWallClock, type WallClock } from '../../base/wallClock';
import { UPDATE_SIGNING_KEY } from './updateSigningKey';
import {
  compareVersions,
  updatePublicKey,
  updateSignatureValid,
  updateStaleness,
  type SignedUpdateInfo,
} from './updateSignature';

/** The updater surface used; electron-updater's `autoUpdater` satisfies it (tests pass a fake). */
export type Updater = Pick<
  AppUpdater,
  | 'on'
  | 'checkForUpdates'
  | 'downloadUpdate'
  | 'quitAndInstall'
  | 'autoDownload'
  | 'autoInstallOnAppQuit'
  | 'allowDowngrade'
  | 'logger'
  | 'setFeedURL'
> & { readonly currentVersion: { readonly version: string } };

/** Options of {@link startUpdates}. */
export interface UpdateOptions {
  readonly isPackaged: boolean;
  /** The generic update feed this build was made with (LAN_PARTY_UPDATE_URL at build time); '' for none. */
  readonly feedUrl: string;
  /** Loads electron-updater (lazily, so development runs and feedless builds never evaluate it). */
  readonly loadUpdater: () => Promise<Updater>;
  /** Where the status goes (the shell service, which tells the page). */
  readonly setStatus: (status: UpdateStatus) => void;
  /** Registers the restart-and-install action (`app.installUpdate`). */
  readonly setInstaller: (install: () => Promise<void>) => void;
  /** Runs before the restart: close the room so guests hear it closed. */
  readonly beforeInstall: () => Promise<void>;
  readonly logger: Logger;
  /** The update-signing public key (raw Ed25519, base64); default the one built in (updateSigningKey.ts). */
  readonly signingKey?: string;
  /** SHA-512 (base64) of a downloaded file; default reads it with node:fs. */
  readonly hashFile?: (path: string) => Promise<string>;
  /** Registers the check the app runs as it quits: a verified update installs on quit only if it still hashes. */
  readonly setQuitCheck?: (check: () => Promise<void>) => void;
  /** The wall clock the signed expiry is read against; default the system's. */
  readonly wallClock?: WallClock;
}

/** Why updates are off, or that a check started. */
export type UpdateStart = 'development' | 'no-feed' | 'insecure-feed' | 'no-signing-key' | 'checking';

async function sha512OfFile(path: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}

/** Why an offered update is refused, or undefined when it is signed, fresh, newer, and names its files. */
function refusal(
  info: SignedUpdateInfo,
  current: string,
  key: ReturnType<typeof updatePublicKey>,
  nowMs: number,
): string | undefined {
  const order = compareVersions(info.version, current);
  if (order === undefined) return `version ${info.version} is not a version`;
  if (order <= 0) return `version ${info.version} is not newer than ${current} (no downgrades)`;
  if (info.files.length === 0) return 'the update names no files';
  if (!updateSignatureValid(info, key)) return 'its metadata is not signed by the LAN Party update key';
  return updateStaleness(info, nowMs);
}

/**
 * Wires the updater: only a packaged build with an https feed and a built-in signing key checks, once at start.
 * An offered version must be newer than this one and its metadata (version, files, their SHA-512, an expiry
 * still ahead) signed by that key before it is downloaded; the downloaded file must hash to a signed SHA-512
 * before it is offered as "Restart to update", and again just before it runs (at the restart, or as the app quits),
 * since the file sits in a cache between the two. Anything else is refused and logged, on every platform. A failed
 * check is logged and leaves the app as it is. The feed is set here from the https URL checked above, never read
 * from the app-update.yml electron-builder writes beside app.asar, outside the archive's integrity check.
 */
export async function startUpdates(options: UpdateOptions): Promise<UpdateStart> {
  const { logger } = options;
  if (!options.isPackaged) {
    logger.info('updates off: a development run');
    return 'development';
  }
  const feed = options.feedUrl.trim();
  if (feed === '') {
    logger.info('updates off: this build has no update feed (set LAN_PARTY_UPDATE_URL when building)');
    return 'no-feed';
  }
  if (!/^https:\/\//i.test(feed)) {
    logger.warn(`updates off: the update feed ${feed} is not https, so anyone on the network could swap it`);
    return 'insecure-feed';
  }
  const signingKey = options.signingKey ?? UPDATE_SIGNING_KEY;
  if (signingKey === '') {
    logger.warn('updates off: this build has no update-signing key (main/shell/desktop/updateSigningKey.ts)');
    return 'no-signing-key';
  }
  const key = updatePublicKey(signingKey);
  const hashFile = options.hashFile ?? sha512OfFile;
  const wallClock = options.wallClock ?? systemWallClock;
  const updater = await options.loadUpdater();
  updater.setFeedURL({ provider: 'generic', url: feed });
  // Nothing downloads or installs by itself: each step waits for the checks below.
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  updater.allowDowngrade = false;
  updater.logger = {
    info: (message?: unknown) => logger.info(`updater: ${String(message)}`),
    warn: (message?: unknown) => logger.warn(`updater: ${String(message)}`),
    error: (message?: unknown) => logger.error(`updater: ${String(message)}`),
  };
  let approved: SignedUpdateInfo | undefined;
  let ready = false;
  let downloadedFile = '';
  const refuse = (version: string, why: string) => {
    logger.warn(`update ${version} refused: ${why}`);
    if (!ready) options.setStatus({ state: 'idle' });
  };
  updater.on('update-available', (info: UpdateInfo) => {
    const why = refusal(info, updater.currentVersion.version, key, wallClock());
    if (why) return refuse(info.version, why);
    approved = info;
    options.setStatus({ state: 'downloading', version: info.version });
    updater.downloadUpdate().catch((error: unknown) => {
      logger.warn('update download failed', error);
      if (!ready) options.setStatus({ state: 'idle' });
    });
  });
  updater.on('update-not-available', () => options.setStatus({ state: 'idle' }));
  updater.on('update-downloaded', (event) => {
    const signed = approved;
    if (!signed || signed.version !== event.version) return refuse(event.version, 'it was not the approved update');
    void hashFile(event.downloadedFile).then(
      (sha512) => {
        if (!signed.files.some((file) => file.sha512 === sha512)) {
          return refuse(event.version, 'the downloaded file does not hash to a signed SHA-512');
        }
        ready = true;
        downloadedFile = event.downloadedFile;
        logger.info(`update ${event.version} downloaded and verified; offering a restart`);
        options.setStatus({ state: 'ready', version: event.version });
      },
      (error: unknown) => refuse(event.version, `could not read the download (${String(error)})`),
    );
  });
  updater.on('error', (error) => {
    logger.warn('update check or download failed', error);
    if (!ready) options.setStatus({ state: 'idle' });
  });
  /** Whether the verified download still hashes to a signed SHA-512, read again just before it runs. */
  const stillSigned = async (): Promise<boolean> => {
    const sha512 = await hashFile(downloadedFile).catch(() => '');
    if (approved?.files.some((file) => file.sha512 === sha512)) return true;
    logger.warn(`update ${approved?.version ?? '?'} refused: the download changed after it was verified`);
    ready = false;
    options.setStatus({ state: 'idle' });
    return false;
  };
  options.setInstaller(async () => {
    if (!ready) throw new Error('no verified update to install');
    await options.beforeInstall();
    if (!(await stillSigned())) throw new Error('the downloaded update changed after it was verified');
    updater.quitAndInstall();
  });
  // electron-updater installs on quit from its own 'quit' handler, after the app's before-quit work: armed only once
  // the file has hashed right again.
  options.setQuitCheck?.(async () => {
    updater.autoInstallOnAppQuit = ready && (await stillSigned());
  });
  options.setStatus({ state: 'idle' });
  try {
    await updater.checkForUpdates();
  } catch (error) {
    logger.warn('update check failed', error);
  }
  return 'checking';
}
