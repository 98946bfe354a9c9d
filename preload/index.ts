import { contextBridge } from 'electron';

// The one bridge: named functions only, never ipcRenderer itself.
contextBridge.exposeInMainWorld('lanParty', {
  version: (): string => '0.1.0',
});
