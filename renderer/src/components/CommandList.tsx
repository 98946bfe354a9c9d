import { useEffect, useRef, useState } from 'react';
import { CheckIcon, CopyIcon } from './Icons';

type CopyState = 'idle' | 'copied' | 'selected';

/** One command with its copy button; when the clipboard is refused the command is selected for Ctrl+C instead. */
function CommandRow({ command }: { command: string }) {
  const [state, setState] = useState<CopyState>('idle');
  const codeRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), state === 'selected' ? 8000 : 2500);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(command);
      setState('copied');
    } catch {
      const code = codeRef.current;
      const selection = window.getSelection();
      if (code && selection) {
        const range = document.createRange();
        range.selectNodeContents(code);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      setState('selected');
    }
  };

  return (
    <li className="command">
      <code ref={codeRef}>{command}</code>
      <button
        type="button"
        className="button button-small command-copy"
        onClick={() => void copy()}
        aria-label={state === 'copied' ? `Copied: ${command}` : `Copy command: ${command}`}
      >
        {state === 'copied' ? <CheckIcon size={14} /> : <CopyIcon />}
        <span aria-hidden="true">{state === 'copied' ? 'Copied' : state === 'selected' ? 'Press Ctrl+C' : 'Copy'}</span>
      </button>
    </li>
  );
}

/** Commands for the player to run, each with a copy button (the network check's advice). */
export function CommandList({ commands }: { commands: readonly string[] }) {
  return (
    <ul className="commands" aria-label="Commands">
      {commands.map((command) => (
        <CommandRow key={command} command={command} />
      ))}
    </ul>
  );
}
