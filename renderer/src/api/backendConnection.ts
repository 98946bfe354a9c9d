import type { LanPartyApi } from '../../../shared/ipc/api';

/** The API plus a way to hear about a dropped connection (only the WebSocket path can drop). */
export interface BackendConnection {
  readonly api: LanPartyApi;
  onClose(callback: () => void): () => void;
}
