import type { IpcContract } from '../../shared/ipc/contract';
import type { HandlersOf } from '../ipc/handlerTypes';

/** Facts about this build, supplied by the host (Electron's app, or package.json for the dev server). */
export interface AppFacts {
  readonly name: string;
  readonly version: string;
  readonly platform: string;
}

/** What this backend can do beyond the build's facts, decided where it is composed. */
export interface AppCapabilities {
  /** A port mapper was injected: internet rooms open through the router even with no rendezvous. */
  readonly portMapping: boolean;
  /** The DHT is on: an internet room with no router mapping and no rendezvous meets its guests there. */
  readonly dht: boolean;
}

/** The gateway handler for `app.getInfo`; the transport comes from the caller's binding. */
export function appInfoHandlers(
  facts: AppFacts,
  capabilities: AppCapabilities,
): Pick<HandlersOf<IpcContract>, 'app.getInfo'> {
  return {
    'app.getInfo': (_input, context) => ({ ...facts, ...capabilities, transport: context.transport }),
  };
}
