import { useRef } from 'react';
import type { LobbyView } from '../../../../shared/ipc/schemas/lobby';
import { internetCodeNote } from '../../logic/internetCodeNote';
import { CopyButton } from '../common/CopyButton';
import { useCopy } from '../common/useCopy';

type Internet = NonNullable<LobbyView['internet']>;

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
        <code
          ref={codeRef}
          // A DHT room's code (NET-K…, 82 characters) is set smaller, so it takes two or three lines, not six.
          className={internet.code.length > 40 ? 'room-code long-code' : 'room-code'}
          aria-labelledby="internet-code-label"
          data-testid="internet-code"
        >
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
            : internetCodeNote(internet)}
        {warn && internet.message ? ` (${internet.message})` : ''}
      </p>
    </div>
  );
}
