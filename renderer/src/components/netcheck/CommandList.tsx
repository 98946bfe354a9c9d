import { useRef } from 'react';
import { CheckIcon, CopyIcon } from '../common/Icons';
import { useCopy } from '../common/useCopy';

/** One command with its copy button; when the clipboard is refused the command is selected for Ctrl+C instead. */
function CommandRow({ command }: { command: string }) {
  const { outcome, copy } = useCopy<'command'>();
  const codeRef = useRef<HTMLElement>(null);
  const state = outcome?.how ?? 'idle';

  return (
    <li className="command">
      <code ref={codeRef}>{command}</code>
      <button
        type="button"
        className="button button-small command-copy"
        onClick={() => void copy('command', command, codeRef)}
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
