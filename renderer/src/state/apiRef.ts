import type { LanPartyApi } from '../../../shared/ipc/api';
import { IpcError, IpcErrorCode } from '../../../shared/ipc/errors';

/** The connected API, shared by the store's slices; null while (re)connecting. */
export interface ApiRef {
  current: LanPartyApi | null;
}

/** Runs `call` with the API, or fails like a dropped connection when there is none. */
export async function withApi<T>(ref: ApiRef, call: (api: LanPartyApi) => Promise<T>): Promise<T> {
  if (!ref.current) throw new IpcError(IpcErrorCode.UNAVAILABLE, 'Not connected to the backend');
  return call(ref.current);
}
