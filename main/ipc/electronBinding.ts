import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { BRIDGE_NAMES_CHANNEL, eventChannel, requestChannel, type BridgeNames } from '../../shared/ipc/channels';
import type { ContractShape } from '../../shared/ipc/contractTypes';
import { IpcErrorCode } from '../../shared/ipc/errors';
import { err, type IpcResult } from '../../shared/ipc/result';
import type { Logger } from '../base/logger';
import type { Gateway } from './gateway';

/** Options for {@link bindElectronIpc}. */
export interface ElectronBindingOptions<C extends ContractShape> {
  readonly gateway: Gateway<C>;
  /** The sender policy (see senderPolicy.ts); false → the request is refused before validation. */
  readonly isTrustedSender: (event: IpcMainInvokeEvent) => boolean;
  /** The renderers that receive events: our window's webContents, looked up at send time. */
  readonly eventTargets: () => readonly WebContents[];
  readonly logger: Logger;
}

/**
 * Registers one ipcMain.handle per request, answers the preload's question for the names, and forwards gateway
 * events; returns the undo.
 */
export function bindElectronIpc<C extends ContractShape>(options: ElectronBindingOptions<C>): () => void {
  const { gateway, isTrustedSender, eventTargets, logger } = options;
  const channels = gateway.requestNames.map((name) => {
    const channel = requestChannel(name);
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, ...args: unknown[]): Promise<IpcResult<unknown>> => {
      if (!isTrustedSender(event)) {
        logger.warn(`refused ${name} from an untrusted sender (${event.senderFrame?.url ?? 'no frame'})`);
        return Promise.resolve(err(IpcErrorCode.PERMISSION_DENIED, 'Sender not allowed'));
      }
      if (args.length > 1) {
        return Promise.resolve(err(IpcErrorCode.INVALID_ARGUMENT, `${name} takes at most one argument`));
      }
      // Only the plain argument and a plain context go on; the Electron event stays here.
      return gateway.dispatch(name, args[0], { transport: 'electron' });
    });
    return channel;
  });

  // The preload builds its bridge from these (synchronously, before the page runs). Names are no secret, so any
  // sender gets them; every request is still checked against the sender policy.
  const names: BridgeNames = { requests: gateway.requestNames, events: gateway.eventNames };
  const answerNames = (event: IpcMainEvent): void => {
    event.returnValue = names;
  };
  ipcMain.on(BRIDGE_NAMES_CHANNEL, answerNames);

  const unsubscribe = gateway.subscribe((name, payload) => {
    for (const target of eventTargets()) {
      if (!target.isDestroyed()) target.send(eventChannel(name), payload);
    }
  });

  return () => {
    ipcMain.removeListener(BRIDGE_NAMES_CHANNEL, answerNames);
    unsubscribe();
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}
