import type { Settings } from '../../../shared/ipc/schemas/settings';
import type { Logger } from '../../base/logger';
import type { SettingsStore } from '../../settings/settingsStore';

/** The part of Electron's nativeTheme this needs. */
export interface ThemeSourceTarget {
  themeSource: 'system' | 'light' | 'dark';
}

/**
 * Keeps Electron's nativeTheme.themeSource on the player's theme setting, now and after every change: the
 * window frame, native controls and the page's prefers-color-scheme then follow the choice. Returns the stop.
 */
export function followThemeSetting(target: ThemeSourceTarget, settings: SettingsStore, logger: Logger): () => void {
  const apply = (next: Settings): void => {
    target.themeSource = next.theme;
  };
  settings.get().then(apply, (error: unknown) => logger.warn('could not read the theme setting', error));
  return settings.onChange(apply);
}
