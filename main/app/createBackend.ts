import { ipcContract, type IpcContract } from '../../shared/ipc/contract';
import { createGateway, type Gateway } from '../ipc/gateway';
import type { HandlersOf } from '../ipc/handlerTypes';
import { createSettingsStore, type SettingsStore } from '../settings/settingsStore';
import { settingsHandlers } from '../settings/settingsHandlers';
import { appInfoHandlers, type AppFacts } from './appInfoHandlers';
import type { Logger } from './logger';

/** Everything the backend needs from its host; Node only, so Electron main and the dev server share it. */
export interface BackendOptions {
  readonly app: AppFacts;
  readonly userDataDir: string;
  readonly osUserName: string;
  /** Check outputs and event payloads against the contract (true in dev and tests). */
  readonly validateOutputs: boolean;
  readonly logger: Logger;
}

/** The services plus the gateway that exposes them. */
export interface Backend {
  readonly gateway: Gateway<IpcContract>;
  readonly settings: SettingsStore;
  close(): Promise<void>;
}

/** Composition root: builds each service, registers its handlers and forwards its events. */
export function createBackend(options: BackendOptions): Backend {
  const settings = createSettingsStore({
    dir: options.userDataDir,
    osUserName: options.osUserName,
    logger: options.logger,
  });
  const handlers: HandlersOf<IpcContract> = {
    ...appInfoHandlers(options.app),
    ...settingsHandlers(settings),
  };
  const gateway = createGateway(ipcContract, handlers, {
    validateOutputs: options.validateOutputs,
    logger: options.logger,
  });
  const stopSettingsEvents = settings.onChange((next) => gateway.emit('settings.changed', next));
  return {
    gateway,
    settings,
    async close() {
      stopSettingsEvents();
    },
  };
}
