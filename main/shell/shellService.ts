import type { IpcContract } from '../../shared/ipc/contract';
import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import type { DeepLink, OpenScreen, ShellNotice, ShellPending, UpdateStatus } from '../../shared/ipc/schemas/shell';
import type { EmitFn } from '../ipc/handlerTypes';

/**
 * What the desktop shell tells the page, held here so it works before the page is up. Node only: the Electron
 * entry feeds it (links, crashes, updates, menu), the dev server never does, and both serve the same requests.
 */
export interface ShellService {
  /** A checked room link: sent to a listening page, else kept (the latest one) until the page asks. */
  deliverDeepLink(link: DeepLink): void;
  /** A one-time notice (the page was reloaded after a crash): sent now, or kept like a link. */
  notice(notice: ShellNotice): void;
  /** A menu command for the page; dropped when no page listens (the menu needs a window anyway). */
  showScreen(screen: OpenScreen['screen']): void;
  /** The page is gone or reloading: keep links and notices until the next one asks. */
  pageGone(): void;
  /** `app.pending`: hands over what was kept and marks the page as listening. */
  takePending(): ShellPending;
  updateStatus(): UpdateStatus;
  setUpdateStatus(status: UpdateStatus): void;
  /** How to install a downloaded update (the updater's restart), set by the Electron entry. */
  setInstaller(install: () => Promise<void>): void;
  /** `app.installUpdate`: restarts into the downloaded update; failed-precondition when none is ready. */
  installUpdate(): Promise<UpdateStatus>;
}

/** Creates the service; `emit` is the gateway's (called lazily, so the gateway may be built after this). */
export function createShellService(emit: EmitFn<IpcContract>): ShellService {
  let listening = false;
  let pendingLink: DeepLink | null = null;
  let pendingNotice: ShellNotice | null = null;
  let update: UpdateStatus = { state: 'disabled' };
  let installer: (() => Promise<void>) | null = null;

  return {
    deliverDeepLink(link) {
      if (listening) emit('app.deepLink', link);
      else pendingLink = link;
    },
    notice(notice) {
      if (listening) emit('app.notice', notice);
      else pendingNotice = notice;
    },
    showScreen(screen) {
      if (listening) emit('app.openScreen', { screen });
    },
    pageGone() {
      listening = false;
    },
    takePending() {
      const pending = { deepLink: pendingLink, notice: pendingNotice };
      pendingLink = null;
      pendingNotice = null;
      listening = true;
      return pending;
    },
    updateStatus: () => update,
    setUpdateStatus(status) {
      update = status;
      emit('app.update', status);
    },
    setInstaller(install) {
      installer = install;
    },
    async installUpdate() {
      if (update.state !== 'ready' || !installer) {
        throw new IpcError(IpcErrorCode.FAILED_PRECONDITION, 'No update is ready to install yet.');
      }
      await installer();
      return update;
    },
  };
}
