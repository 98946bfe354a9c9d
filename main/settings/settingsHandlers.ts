import type { IpcContract } from '../../shared/ipc/contract';
import type { HandlersIn } from '../ipc/handlerTypes';
import type { SettingsStore } from './settingsStore';

/** The gateway handlers for the settings requests. */
export function settingsHandlers(store: SettingsStore): HandlersIn<IpcContract, 'settings'> {
  return {
    'settings.get': () => store.get(),
    'settings.update': (patch) => store.update(patch),
  };
}
