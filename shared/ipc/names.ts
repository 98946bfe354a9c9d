import type { EventNameOf, RequestNameOf } from './contractTypes';
import { ipcContract, type IpcContract } from './contract';

// A request or event is named once, as its key in contract.ts; these lists are read off the contract. The preload,
// which must not load the schemas, gets them from main instead (see BRIDGE_NAMES_CHANNEL in channels.ts).

/** One request the renderer may make. */
export type RequestName = RequestNameOf<IpcContract>;

/** One event main may push to the renderer. */
export type EventName = EventNameOf<IpcContract>;

/** Every request of the contract, in its order. */
export const requestNames = Object.freeze(Object.keys(ipcContract.requests) as RequestName[]);

/** Every event of the contract, in its order. */
export const eventNames = Object.freeze(Object.keys(ipcContract.events) as EventName[]);
