import { useRef, useState } from 'react';
import { inviteLink } from '../../../../shared/deepLink';
import { shortCodeMissingText, type ShortCodeMissing } from '../../logic/shortCodeNote';
import { CopyButton } from '../common/CopyButton';
import { useCopy, type CopyOutcome } from '../common/useCopy';

type Copied = 'code' | 'link';

const NOTES = {
  idle: 'Read it out, or send it to friends on this network.',
  'copied-code': 'Copied to the clipboard.',
  'copied-link': 'Invite link copied: friends who click it get the join screen with this code filled in.',
  'selected-code': 'Couldn’t copy automatically — the code is selected, press Ctrl+C (⌘C on a Mac).',
  'selected-link': 'Couldn’t copy automatically — the link below is selected, press Ctrl+C (⌘C on a Mac).',
} as const;

const noteOf = (outcome: CopyOutcome<Copied>): string =>
  outcome === null ? NOTES.idle : NOTES[`${outcome.how}-${outcome.key}`];

/**
 * The room code, large, with copy buttons for the code and for an invite link (`lanparty://join/<code>`);
 * when the clipboard is refused, the text is selected for Ctrl+C instead. A room with a short LAN code shows
 * it first, the full gale.net code one click away; one without says why friends need the full code.
 */
export function CodeDisplay({
  code: fullCode,
  shortCode = null,
  shortCodeMissing = null,
}: {
  code: string;
  shortCode?: string | null;
  shortCodeMissing?: ShortCodeMissing | null;
}) {
  const [showFull, setShowFull] = useState(false);
  const code = shortCode !== null && !showFull ? shortCode : fullCode;
  const { outcome, copied, copy } = useCopy<Copied>();
  const codeRef = useRef<HTMLElement>(null);
  const linkRef = useRef<HTMLElement>(null);
  // The link carries the full code: it works from any network, and the link parser reads only full codes.
  const link = inviteLink(fullCode);

  return (
    <div className="code-display">
      <span className="field-label" id="room-code-label">
        {shortCode !== null && !showFull ? 'Room code (this network)' : 'Room code'}
      </span>
      <div className="code-row">
        <code ref={codeRef} className="room-code" aria-labelledby="room-code-label" data-testid="room-code">
          {code}
        </code>
        <CopyButton label="Copy code" copied={copied('code')} onClick={() => void copy('code', code, codeRef)} />
        <CopyButton label="Copy invite link" copied={copied('link')} onClick={() => void copy('link', link, linkRef)} />
      </div>
      {shortCode !== null ? (
        <button
          type="button"
          className="link-button code-switch"
          aria-pressed={showFull}
          onClick={() => setShowFull((full) => !full)}
        >
          {showFull ? 'Show the short code' : 'Code for gale.net games'}
        </button>
      ) : (
        shortCodeMissing && <p className="code-reason">{shortCodeMissingText(shortCodeMissing)}</p>
      )}
      {showFull && shortCode !== null && (
        <p className="code-reason">
          The full code works from any network that reaches this computer, and in gale.net games.
        </p>
      )}
      <p className="code-note" role="status" aria-live="polite">
        {noteOf(outcome)}
        {outcome?.key === 'link' && outcome.how === 'selected' && (
          <>
            {' '}
            <code ref={linkRef} className="mono" data-testid="invite-link">
              {link}
            </code>
          </>
        )}
      </p>
    </div>
  );
}
