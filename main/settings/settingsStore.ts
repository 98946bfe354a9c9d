import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import { settingsSchema, type Settings, type SettingsView } from '../../shared/ipc/schemas/settings';
import { Listeners } from '../base/listeners';
import type { Logger } from '../base/logger';
import { atomicWriteFile } from '../base/atomicWriteFile';
import { backUpCorruptFile } from './corruptBackup';
import { defaultSettings } from './defaultSettings';
import { parseSettingsFile, serializeSettingsFile, SETTINGS_FILE_NAME, type SavedLanServer } from './settingsFile';
import { readWarning, saveWarning } from './storageWarning';

/** A validated partial update (already trimmed and normalised by the contract). */
export type ParsedSettingsPatch = Partial<Settings>;

/** Options for {@link createSettingsStore}. */
export interface SettingsStoreOptions {
  /** The user-data folder (Electron's app.getPath('userData'), or a temp dir in tests). */
  readonly dir: string;
  /** Seeds the default player name. */
  readonly osUserName: string;
  readonly logger: Logger;
  /** The time corrupt-file backups are named after; default now. */
  readonly now?: () => Date;
}

/**
 * The player's settings, loaded once and persisted on every change. When the file cannot be read or written,
 * play goes on with the settings in memory and every value carries a `storageWarning` saying where and why.
 */
export interface SettingsStore {
  readonly filePath: string;
  get(): Promise<SettingsView>;
  /** Applies a patch, writes the file (or warns) and notifies listeners (only when something changed). */
  update(patch: ParsedSettingsPatch): Promise<SettingsView>;
  onChange(listener: (settings: SettingsView) => void): () => void;
  /** The LAN list's servers added by address, as last saved. */
  getLanServers(): Promise<readonly SavedLanServer[]>;
  /** Replaces them and writes the file (a failed write warns like any other save). */
  setLanServers(servers: readonly SavedLanServer[]): Promise<void>;
}

function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** Creates the store; nothing touches the disk until the first get or update. */
export function createSettingsStore({ dir, osUserName, logger, now }: SettingsStoreOptions): SettingsStore {
  const filePath = join(dir, SETTINGS_FILE_NAME);
  const listeners = new Listeners<[SettingsView]>((error) => logger.warn('settings listener failed', error));
  let current: Promise<Settings> | null = null;
  // Why the settings live only in memory right now; cleared by the next successful save.
  let warning: string | undefined;
  const view = (settings: Settings): SettingsView =>
    warning === undefined ? settings : { ...settings, storageWarning: warning };
  // Updates run one at a time so two quick saves cannot interleave their writes.
  let queue: Promise<unknown> = Promise.resolve();
  let lanServers: readonly SavedLanServer[] = [];
  const enqueue = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task);
    queue = run.catch(() => undefined);
    return run;
  };

  async function load(): Promise<Settings> {
    const defaults = defaultSettings(osUserName);
    let text: string;
    try {
      text = await readFile(filePath, 'utf8');
    } catch (error) {
      if (!isMissingFile(error)) {
        logger.warn(`cannot read ${filePath}; using defaults`, error);
        warning = readWarning(filePath, error);
      }
      return defaults;
    }
    const parsed = parseSettingsFile(text, defaults);
    for (const problem of parsed.warnings) logger.warn(`${problem} (${filePath})`);
    lanServers = parsed.lanServers;
    if (parsed.unreadable) {
      // Keep the damaged file for the user to inspect instead of silently overwriting it on the next save.
      await backUpCorruptFile(filePath, now?.() ?? new Date()).then(
        (backup) => logger.warn(`kept the unreadable settings file as ${backup}`),
        (error: unknown) => logger.warn(`could not keep the unreadable settings file ${filePath}`, error),
      );
    }
    return parsed.settings;
  }

  const loaded = (): Promise<Settings> => {
    current ??= load();
    return current;
  };

  async function write(settings: Settings): Promise<void> {
    try {
      await mkdir(dir, { recursive: true });
      await atomicWriteFile(filePath, serializeSettingsFile(settings, lanServers));
      warning = undefined;
    } catch (error) {
      // A folder where the file should be, a read-only disk: the player keeps playing, and is told.
      logger.warn(`cannot save ${filePath}; keeping the settings in memory`, error);
      warning = saveWarning(filePath, error);
    }
  }

  async function apply(patch: ParsedSettingsPatch): Promise<SettingsView> {
    const before = await loaded();
    const merged = settingsSchema.safeParse({
      playerName: patch.playerName ?? before.playerName,
      playerColor: patch.playerColor ?? before.playerColor,
      onboarded: patch.onboarded ?? before.onboarded,
      notifications: patch.notifications ?? before.notifications,
      theme: patch.theme ?? before.theme,
      internet: patch.internet ?? before.internet,
      ...((patch.hostInterface !== undefined ? patch.hostInterface : before.hostInterface)
        ? { hostInterface: patch.hostInterface !== undefined ? patch.hostInterface : before.hostInterface }
        : {}),
    });
    if (!merged.success) throw new IpcError(IpcErrorCode.INVALID_ARGUMENT, 'Settings update is invalid');
    const next = merged.data;
    const unchanged =
      next.playerName === before.playerName &&
      next.playerColor === before.playerColor &&
      next.onboarded === before.onboarded &&
      next.notifications === before.notifications &&
      next.theme === before.theme &&
      JSON.stringify(next.internet) === JSON.stringify(before.internet) &&
      (next.hostInterface ?? null) === (before.hostInterface ?? null);
    if (unchanged) return view(before);
    await write(next);
    current = Promise.resolve(next);
    const shown = view(next);
    listeners.emit(shown);
    return shown;
  }

  return {
    filePath,
    get: async () => view(await loaded()),
    update: (patch) => enqueue(() => apply(patch)),
    onChange: (listener) => listeners.add(listener),
    getLanServers: async () => {
      await loaded();
      return lanServers;
    },
    setLanServers: (servers) =>
      enqueue(async () => {
        const settings = await loaded();
        lanServers = [...servers];
        await write(settings);
      }),
  };
}
