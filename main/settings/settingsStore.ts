import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import { settingsSchema, type Settings } from '../../shared/ipc/schemas/settings';
import type { Logger } from '../base/logger';
import { atomicWriteFile } from './atomicWriteFile';
import { defaultSettings } from './defaultSettings';
import { parseSettingsFile, serializeSettingsFile, SETTINGS_FILE_NAME } from './settingsFile';

/** A validated partial update (already trimmed and normalised by the contract). */
export type ParsedSettingsPatch = Partial<Settings>;

/** Options for {@link createSettingsStore}. */
export interface SettingsStoreOptions {
  /** The user-data folder (Electron's app.getPath('userData'), or a temp dir in tests). */
  readonly dir: string;
  /** Seeds the default player name. */
  readonly osUserName: string;
  readonly logger: Logger;
}

/** The player's settings, loaded once and persisted on every change. */
export interface SettingsStore {
  readonly filePath: string;
  get(): Promise<Settings>;
  /** Applies a patch, writes the file and notifies listeners (only when something changed). */
  update(patch: ParsedSettingsPatch): Promise<Settings>;
  onChange(listener: (settings: Settings) => void): () => void;
}

function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** Creates the store; nothing touches the disk until the first get or update. */
export function createSettingsStore({ dir, osUserName, logger }: SettingsStoreOptions): SettingsStore {
  const filePath = join(dir, SETTINGS_FILE_NAME);
  const listeners = new Set<(settings: Settings) => void>();
  let current: Promise<Settings> | null = null;
  // Updates run one at a time so two quick saves cannot interleave their writes.
  let queue: Promise<unknown> = Promise.resolve();

  async function load(): Promise<Settings> {
    const defaults = defaultSettings(osUserName);
    let text: string;
    try {
      text = await readFile(filePath, 'utf8');
    } catch (error) {
      if (!isMissingFile(error)) logger.warn(`cannot read ${filePath}; using defaults`, error);
      return defaults;
    }
    const parsed = parseSettingsFile(text, defaults);
    for (const warning of parsed.warnings) logger.warn(`${warning} (${filePath})`);
    if (parsed.unreadable) {
      // Keep the damaged file for the user to inspect instead of silently overwriting it on the next save.
      await rename(filePath, `${filePath}.corrupt`).catch(() => undefined);
    }
    return parsed.settings;
  }

  const get = (): Promise<Settings> => {
    current ??= load();
    return current;
  };

  async function apply(patch: ParsedSettingsPatch): Promise<Settings> {
    const before = await get();
    const merged = settingsSchema.safeParse({
      playerName: patch.playerName ?? before.playerName,
      playerColor: patch.playerColor ?? before.playerColor,
      onboarded: patch.onboarded ?? before.onboarded,
      theme: patch.theme ?? before.theme,
    });
    if (!merged.success) throw new IpcError(IpcErrorCode.INVALID_ARGUMENT, 'Settings update is invalid');
    const next = merged.data;
    const unchanged =
      next.playerName === before.playerName &&
      next.playerColor === before.playerColor &&
      next.onboarded === before.onboarded &&
      next.theme === before.theme;
    if (unchanged) return before;
    await mkdir(dir, { recursive: true });
    await atomicWriteFile(filePath, serializeSettingsFile(next));
    current = Promise.resolve(next);
    for (const listener of [...listeners]) {
      try {
        listener(next);
      } catch (error) {
        logger.warn('settings listener failed', error);
      }
    }
    return next;
  }

  return {
    filePath,
    get,
    update(patch) {
      const run = queue.then(() => apply(patch));
      queue = run.catch(() => undefined);
      return run;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
