import { useState } from 'react';
import type { ShellNotice, UpdateStatus } from '../../../../shared/ipc/schemas/shell';
import type { ActionResult } from '../../state/actionResult';

/** What each one-time notice says: the page was reloaded, and nothing else was lost. */
export const SHELL_NOTICE_TEXT: Readonly<Record<ShellNotice['kind'], string>> = {
  'renderer-crashed': 'The LAN Party window stopped unexpectedly and was reloaded. Your room and settings are kept.',
  'renderer-hung': 'The LAN Party window stopped responding and was reloaded. Your room and settings are kept.',
};

/** Banners from the desktop shell: a downloaded update, a reload notice, an invite that waits for leaving the room. */
export function ShellBanners({
  notice,
  update,
  inviteWhileInRoom,
  onDismissNotice,
  onDismissInvite,
  onInstallUpdate,
}: {
  notice: ShellNotice | null;
  update: UpdateStatus;
  /** The code of an invite link opened while in a room, else null. */
  inviteWhileInRoom: string | null;
  onDismissNotice: () => void;
  onDismissInvite: () => void;
  onInstallUpdate: () => Promise<ActionResult>;
}) {
  const [installing, setInstalling] = useState(false);
  const [installError, setInstallError] = useState<string | null>(null);
  const install = async (): Promise<void> => {
    setInstalling(true);
    setInstallError(null);
    const result = await onInstallUpdate();
    setInstalling(false);
    if (!result.ok) setInstallError(result.message);
  };

  return (
    <>
      {update.state === 'ready' && (
        <div className="banner" role="status" data-testid="update-banner">
          <span>LAN Party {update.version} is downloaded. Restarting installs it and closes any open room.</span>
          <button type="button" className="button button-small" disabled={installing} onClick={() => void install()}>
            {installing ? 'Restarting…' : 'Restart to update'}
          </button>
          {installError && <span className="field-error">{installError}</span>}
        </div>
      )}
      {notice && (
        <div className="banner" role="alert" data-testid="shell-notice">
          <span>{SHELL_NOTICE_TEXT[notice.kind]}</span>
          <button type="button" className="button button-small" onClick={onDismissNotice}>
            Dismiss
          </button>
        </div>
      )}
      {inviteWhileInRoom && (
        <div className="banner" role="status" data-testid="invite-banner">
          <span>
            You opened an invite to room <span className="mono">{inviteWhileInRoom}</span>. Leave this room to join it.
          </span>
          <button type="button" className="button button-small" onClick={onDismissInvite}>
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}
