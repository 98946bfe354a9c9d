import type { IpcContract } from '../../shared/ipc/contract';
import type { HandlersOf } from '../ipc/handlerTypes';
import type { SettingsStore } from './settingsStore';

/** The gateway handlers for the settings requests. */
export function settingsHandlers(
  store: SettingsStore,
): Pick<HandlersOf<IpcContract>, 'settings.get' | 'settings.update'> {
  return {
    'settings.get': () => store.get(),
    'settings.update': (patch) => store.update(patch),
  };
}
