import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_GLOBAL, BRIDGE_NAMES_CHANNEL, parseBridgeNames } from '../shared/ipc/channels';
import { createBridge } from './createBridge';

// The one bridge: named functions generated from the contract's names, which main gives (the preload never loads
// the contract's schemas), never ipcRenderer itself.
const names = parseBridgeNames(ipcRenderer.sendSync(BRIDGE_NAMES_CHANNEL));
contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, createBridge(ipcRenderer, names));
