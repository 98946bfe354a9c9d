import type { IpcContract } from '../../shared/ipc/contract';
import type { HandlersOf } from '../ipc/handlerTypes';
import type { ShellService } from './shellService';

/** The gateway handlers for the shell's requests. */
export function shellHandlers(
  shell: ShellService,
): Pick<HandlersOf<IpcContract>, 'app.pending' | 'app.updateStatus' | 'app.installUpdate'> {
  return {
    'app.pending': () => shell.takePending(),
    'app.updateStatus': () => shell.updateStatus(),
    'app.installUpdate': () => shell.installUpdate(),
  };
}
