import type { LanPartyApi, LanPartyBridge } from '../../../shared/ipc/api';
import { listenerName } from '../../../shared/ipc/channels';
import { ipcContract } from '../../../shared/ipc/contract';
import { IpcError, IpcErrorCode } from '../../../shared/ipc/errors';
import { eventNames, requestNames } from '../../../shared/ipc/names';
import { ipcResultSchema } from '../../../shared/ipc/result';

type RawBridge = Readonly<Record<string, (arg?: unknown) => unknown>>;

/**
 * Wraps a bridge (preload or WebSocket) into the renderer's API: outputs and event payloads are checked
 * against the contract (the other side is another process), and failures reject with an IpcError.
 */
export function createApiFromBridge(bridge: LanPartyBridge, warn: (message: string) => void = () => {}): LanPartyApi {
  const raw = bridge as unknown as RawBridge;
  const api: Record<string, unknown> = {};
  for (const name of requestNames) {
    const outputSchema = ipcContract.requests[name].output;
    api[name] = async (input?: unknown) => {
      let reply: unknown;
      try {
        reply = await raw[name]?.(input);
      } catch (error) {
        throw new IpcError(IpcErrorCode.UNAVAILABLE, `Backend unreachable: ${(error as Error)?.message ?? error}`);
      }
      const result = ipcResultSchema.safeParse(reply);
      if (!result.success) throw new IpcError(IpcErrorCode.INTERNAL, `Malformed reply to ${name}`);
      if (!result.data.ok) throw IpcError.fromData(result.data.error);
      const output = outputSchema.safeParse(result.data.value);
      if (!output.success) throw new IpcError(IpcErrorCode.INTERNAL, `Reply to ${name} breaks the contract`);
      return output.data;
    };
  }
  for (const name of eventNames) {
    const key = listenerName(name);
    const schema = ipcContract.events[name];
    api[key] = (callback: (payload: unknown) => void) => {
      const unsubscribe = raw[key]?.((payload: unknown) => {
        const parsed = schema.safeParse(payload);
        if (parsed.success) callback(parsed.data);
        else warn(`dropped a ${name} event that breaks the contract`);
      });
      return typeof unsubscribe === 'function' ? unsubscribe : () => {};
    };
  }
  return Object.freeze(api) as unknown as LanPartyApi;
}
