import { CheckIcon, CopyIcon } from './Icons';

/** A copy button of the room's code displays: its label, or "Copied" with a check once it has copied. */
export function CopyButton({ label, copied, onClick }: { label: string; copied: boolean; onClick: () => void }) {
  return (
    <button type="button" className="button button-ghost copy-button" onClick={onClick}>
      {copied ? <CheckIcon /> : <CopyIcon />}
      <span>{copied ? 'Copied' : label}</span>
    </button>
  );
}
