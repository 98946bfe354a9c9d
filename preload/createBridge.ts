import type { IpcRenderer, IpcRendererEvent } from 'electron';
import type { LanPartyBridge } from '../shared/ipc/api';
import { eventChannel, listenerName, requestChannel, type BridgeNames } from '../shared/ipc/channels';

/** The ipcRenderer surface the bridge uses; passed in so it is testable and never handed to the page. */
export type BridgeIpc = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;

/**
 * Builds the page-facing bridge from the contract's names (as main gave them): one function per request (resolving
 * to the result data) and one `onX(callback) → unsubscribe` per event. Closures only; ipcRenderer stays here.
 */
export function createBridge(ipc: BridgeIpc, names: BridgeNames): LanPartyBridge {
  const bridge: Record<string, (arg?: unknown) => unknown> = {};
  for (const name of names.requests) {
    const channel = requestChannel(name);
    // Exactly one argument crosses, whatever the page passes.
    bridge[name] = (input?: unknown) => ipc.invoke(channel, input);
  }
  for (const name of names.events) {
    const channel = eventChannel(name);
    bridge[listenerName(name)] = (callback?: unknown) => {
      if (typeof callback !== 'function') throw new TypeError(`${listenerName(name)} needs a callback function`);
      // The Electron event (which references ipcRenderer) is dropped; only the payload reaches the page.
      const listener = (_event: IpcRendererEvent, payload: unknown): void => void callback(payload);
      ipc.on(channel, listener);
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        ipc.removeListener(channel, listener);
      };
    };
  }
  return Object.freeze(bridge) as unknown as LanPartyBridge;
}
