import { useState, type FormEvent } from 'react';
import type { LanAddedServer } from '../../../../shared/ipc/schemas/lan';
import { parseHostPort } from '../../logic/hostPort';
import type { ActionResult } from '../../state/actionResult';
import { CloseIcon } from '../common/Icons';
import { Spinner } from '../common/Spinner';

const STATUS_TEXT: Record<LanAddedServer['status'], string> = {
  waiting: 'Asking…',
  answered: 'Answering · listed above',
  'no-answer': 'No answer',
  unreachable: 'Can’t reach it',
};

/**
 * "Add server by address": for a room beyond this network's broadcasts (Tailscale, ZeroTier, another subnet),
 * asked directly on every search round. Lists what was added, with how each answers, and removes them.
 */
export function LanAddServer({
  added,
  discoveryPort,
  onAdd,
  onRemove,
}: {
  added: readonly LanAddedServer[];
  discoveryPort: number;
  onAdd: (host: string, port: number) => Promise<ActionResult>;
  onRemove: (host: string, port: number) => Promise<ActionResult>;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const parsed = parseHostPort(text, discoveryPort);
    if (!parsed.ok) {
      setError(text.trim() === '' ? 'Enter the address of the computer hosting the room.' : parsed.message);
      return;
    }
    setPending(true);
    const result = await onAdd(parsed.host, parsed.port);
    setPending(false);
    if (result.ok) {
      setText('');
      setError(null);
    } else setError(result.message);
  };

  return (
    <section className="card lan-add" aria-labelledby="lan-add-title">
      <form className="lan-add-form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="lan-add-field">
          <label id="lan-add-title" className="field-label" htmlFor="lan-add-address">
            Add server by address
          </label>
          <input
            id="lan-add-address"
            className="input"
            type="text"
            spellCheck={false}
            autoComplete="off"
            placeholder={`100.64.0.7 or party-pc:${discoveryPort}`}
            value={text}
            aria-invalid={error !== null}
            aria-describedby="lan-add-hint"
            onChange={(event) => {
              setText(event.target.value);
              setError(null);
            }}
          />
          <p id="lan-add-hint" className={error ? 'field-error' : 'field-hint'} role={error ? 'alert' : undefined}>
            {error ??
              `For a room on another subnet or a VPN (Tailscale, ZeroTier): asked directly on UDP ${discoveryPort} unless you add a port.`}
          </p>
        </div>
        <button type="submit" className="button button-ghost lan-add-button" disabled={pending}>
          {pending && <Spinner />}
          Add server
        </button>
      </form>
      {added.length > 0 && (
        <ul className="lan-added" aria-label="Servers added by address">
          {added.map((entry) => (
            <li key={`${entry.host}:${entry.port}`} className="lan-added-row" data-testid="added-server">
              <span className="mono">
                {entry.host}:{entry.port}
              </span>
              <span className={`lan-added-status lan-added-${entry.status}`} title={entry.detail ?? undefined}>
                {STATUS_TEXT[entry.status]}
                {entry.detail && entry.status === 'unreachable' ? ` (${entry.detail})` : ''}
              </span>
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove ${entry.host}:${entry.port}`}
                onClick={() => void onRemove(entry.host, entry.port)}
              >
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
