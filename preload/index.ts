import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_GLOBAL } from '../shared/ipc/channels';
import { createBridge } from './createBridge';

// The one bridge: named functions generated from the contract, never ipcRenderer itself.
contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, createBridge(ipcRenderer));
