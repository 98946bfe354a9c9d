import type { ListenerName } from './channels';
import type { IpcContract } from './contract';
import type {
  ContractShape,
  EventNameOf,
  EventPayload,
  RequestArgs,
  RequestNameOf,
  RequestOutput,
} from './contractTypes';
import type { IpcResult } from './result';

/** Subscribe functions, one per event: `onSettingsChanged(cb)` returns its unsubscribe. */
export type ListenersOf<C extends ContractShape> = {
  readonly [K in EventNameOf<C> as ListenerName<K>]: (callback: (payload: EventPayload<C, K>) => void) => () => void;
};

/** The raw bridge (preload or WebSocket): requests resolve to result data, never reject on a handler error. */
export type BridgeOf<C extends ContractShape> = {
  readonly [K in RequestNameOf<C>]: (...args: RequestArgs<C, K>) => Promise<IpcResult<RequestOutput<C, K>>>;
} & ListenersOf<C>;

/** The renderer's API: requests resolve to their output or reject with an IpcError. */
export type ApiOf<C extends ContractShape> = {
  readonly [K in RequestNameOf<C>]: (...args: RequestArgs<C, K>) => Promise<RequestOutput<C, K>>;
} & ListenersOf<C>;

/** What the preload exposes as `window.lanParty`. */
export type LanPartyBridge = BridgeOf<IpcContract>;

/** What renderer code calls. */
export type LanPartyApi = ApiOf<IpcContract>;
