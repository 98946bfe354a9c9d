import { useEffect, useRef, useState } from 'react';
import { inviteLink } from '../../../shared/deepLink';
import { shortCodeMissingText, type ShortCodeMissing } from '../logic/shortCodeNote';
import { CheckIcon, CopyIcon } from './Icons';

type CopyState = 'idle' | 'copied-code' | 'copied-link' | 'selected-code' | 'selected-link';

/** Selects an element's text, so Ctrl+C copies it when the clipboard API is refused. */
function selectText(element: HTMLElement): void {
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

const NOTES: Readonly<Record<CopyState, string>> = {
  idle: 'Read it out, or send it to friends on this network.',
  'copied-code': 'Copied to the clipboard.',
  'copied-link': 'Invite link copied: friends who click it get the join screen with this code filled in.',
  'selected-code': 'Couldn’t copy automatically — the code is selected, press Ctrl+C (⌘C on a Mac).',
  'selected-link': 'Couldn’t copy automatically — the link below is selected, press Ctrl+C (⌘C on a Mac).',
};

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
  const [state, setState] = useState<CopyState>('idle');
  const codeRef = useRef<HTMLElement>(null);
  const linkRef = useRef<HTMLElement>(null);
  // The link carries the full code: it works from any network, and the link parser reads only full codes.
  const link = inviteLink(fullCode);

  useEffect(() => {
    if (state === 'idle') return;
    // The link is only on screen once it has to be selected by hand.
    if (state === 'selected-link' && linkRef.current) selectText(linkRef.current);
    const timer = setTimeout(() => setState('idle'), state === 'selected-link' ? 8000 : 2500);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async (what: 'code' | 'link'): Promise<void> => {
    try {
      await navigator.clipboard.writeText(what === 'code' ? code : link);
      setState(what === 'code' ? 'copied-code' : 'copied-link');
    } catch {
      if (what === 'code' && codeRef.current) selectText(codeRef.current);
      setState(what === 'code' ? 'selected-code' : 'selected-link');
    }
  };

  return (
    <div className="code-display">
      <span className="field-label" id="room-code-label">
        {shortCode !== null && !showFull ? 'Room code (this network)' : 'Room code'}
      </span>
      <div className="code-row">
        <code ref={codeRef} className="room-code" aria-labelledby="room-code-label" data-testid="room-code">
          {code}
        </code>
        <button type="button" className="button button-ghost copy-button" onClick={() => void copy('code')}>
          {state === 'copied-code' ? <CheckIcon /> : <CopyIcon />}
          <span>{state === 'copied-code' ? 'Copied' : 'Copy code'}</span>
        </button>
        <button type="button" className="button button-ghost copy-button" onClick={() => void copy('link')}>
          {state === 'copied-link' ? <CheckIcon /> : <CopyIcon />}
          <span>{state === 'copied-link' ? 'Copied' : 'Copy invite link'}</span>
        </button>
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
        {NOTES[state]}
        {state === 'selected-link' && (
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
