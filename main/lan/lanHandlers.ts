import type { IpcContract } from '../../shared/ipc/contract';
import type { HandlersIn } from '../ipc/handlerTypes';
import type { LanBrowserService } from './lanBrowserService';

/** The gateway handlers for the LAN list: one continuous search, started and stopped by the list screen. */
export function lanHandlers(lan: LanBrowserService): HandlersIn<IpcContract, 'lan'> {
  return {
    'lan.start': () => lan.start(),
    'lan.stop': () => lan.stop(),
    'lan.refresh': () => lan.refresh(),
    'lan.addServer': (server) => lan.addServer(server),
    'lan.removeServer': (server) => lan.removeServer(server),
  };
}
