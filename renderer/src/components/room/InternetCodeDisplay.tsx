import { useRef } from 'react';
import type { LobbyView } from '../../../../shared/ipc/schemas/lobby';
import { readInternetCode } from '../../../../shared/rendezvous';
import { CopyButton } from '../common/CopyButton';
import { useCopy } from '../common/useCopy';

type Internet = NonNullable<LobbyView['internet']>;

const STATUS_NOTES: Readonly<Record<Internet['status'], string>> = {
  registered: 'Friends anywhere join with this code: directly when their network allows, else through the relay.',
  reconnecting:
    'The rendezvous server is out of reach; reconnecting. Players already here are not affected, but new friends cannot join with this code until it is back.',
  expired:
    'This internet code has expired: new friends can only join from this network. Open a new room for a fresh code.',
  closed: 'This internet code is closed.',
};

/** A direct room's note: its code leads straight to the port the host's router opened, no rendezvous. */
const DIRECT_NOTE = 'Friends anywhere join with this code, straight to the port your router opened for the room.';

/** The note under the code: where a direct room's code leads, or where a rendezvous room stands. */
function statusNote(internet: Internet): string {
  const read = readInternetCode(internet.code);
  return internet.status === 'registered' && read.ok && read.invite.kind === 'direct'
    ? DIRECT_NOTE
    : STATUS_NOTES[internet.status];
}

/** The invite text a host pastes into a chat: the code and where to type it. */
export function internetInvite(code: string, roomName: string | null): string {
  return `Join ${roomName ? `“${roomName}”` : 'my room'} in LAN Party: open Join a room and type ${code}`;
}

/** An internet room's NET- code with copy buttons for the code and a ready-to-send invite, and where it stands. */
export function InternetCodeDisplay({ internet, roomName }: { internet: Internet; roomName: string | null }) {
  const { outcome, copied, copy } = useCopy<'code' | 'invite'>();
  const codeRef = useRef<HTMLElement>(null);

  const warn = internet.status !== 'registered';
  return (
    <div className="code-display internet-code" data-testid="internet-code-block">
      <span className="field-label" id="internet-code-label">
        Internet code (friends anywhere)
      </span>
      <div className="code-row">
        <code ref={codeRef} className="room-code" aria-labelledby="internet-code-label" data-testid="internet-code">
          {internet.code}
        </code>
        <CopyButton
          label="Copy code"
          copied={copied('code')}
          onClick={() => void copy('code', internet.code, codeRef)}
        />
        <CopyButton
          label="Copy invite"
          copied={copied('invite')}
          onClick={() => void copy('invite', internetInvite(internet.code, roomName), codeRef)}
        />
      </div>
      <p className={warn ? 'code-reason code-warning' : 'code-note'} role="status" aria-live="polite">
        {outcome?.how === 'selected'
          ? 'Couldn’t copy automatically — the code is selected, press Ctrl+C (⌘C on a Mac).'
          : copied('invite')
            ? 'Invite copied: paste it into your group chat.'
            : statusNote(internet)}
        {warn && internet.message ? ` (${internet.message})` : ''}
      </p>
    </div>
  );
}
