import { useEffect, useRef, useState } from 'react';
import { CheckIcon, CopyIcon } from './Icons';

type CopyState = 'idle' | 'copied' | 'selected';

/** Selects an element's text, so Ctrl+C copies it when the clipboard API is refused. */
function selectText(element: HTMLElement): void {
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** The room code, large, with a copy button (falls back to selecting the code). */
export function CodeDisplay({ code }: { code: string }) {
  const [state, setState] = useState<CopyState>('idle');
  const codeRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(code);
      setState('copied');
    } catch {
      if (codeRef.current) selectText(codeRef.current);
      setState('selected');
    }
  };

  return (
    <div className="code-display">
      <span className="field-label" id="room-code-label">
        Room code
      </span>
      <div className="code-row">
        <code ref={codeRef} className="room-code" aria-labelledby="room-code-label" data-testid="room-code">
          {code}
        </code>
        <button type="button" className="button button-ghost copy-button" onClick={() => void copy()}>
          {state === 'copied' ? <CheckIcon /> : <CopyIcon />}
          <span>{state === 'copied' ? 'Copied' : 'Copy code'}</span>
        </button>
      </div>
      <p className="code-note" role="status" aria-live="polite">
        {state === 'selected'
          ? 'Couldn’t copy automatically — the code is selected, press Ctrl+C (⌘C on a Mac).'
          : state === 'copied'
            ? 'Copied to the clipboard.'
            : 'Read it out, or send it to friends on this network.'}
      </p>
    </div>
  );
}
