/// <reference types="vite/client" />
import type { LanPartyBridge } from '../../shared/ipc/api';

declare global {
  interface Window {
    /** Present when running inside Electron (exposed by the preload); absent in a plain browser. */
    readonly lanParty?: LanPartyBridge;
  }
}
