import { useState } from 'react';
import type { NetcheckExport as ExportResult } from '../../../../shared/ipc/schemas/netcheck';
import { CheckIcon, CopyIcon } from '../common/Icons';

type Status =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'copied' }
  | { kind: 'saved'; path: string }
  | { kind: 'shown'; text: string }
  | { kind: 'error'; message: string };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * "Copy report" and "Save report…" for a support request: the report as text with the app version and the
 * log folder. Saving goes through the desktop app's save dialog, so the browser dev mode only copies. When
 * the clipboard is refused, the text is shown to copy by hand.
 */
export function NetcheckExport({
  onExport,
  canSave,
}: {
  onExport: (save: boolean) => Promise<ExportResult>;
  canSave: boolean;
}) {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  const copy = async (): Promise<void> => {
    setStatus({ kind: 'busy' });
    let text: string;
    try {
      text = (await onExport(false)).text;
    } catch (error) {
      setStatus({ kind: 'error', message: messageOf(error) });
      return;
    }
    try {
      await navigator.clipboard.writeText(text);
      setStatus({ kind: 'copied' });
    } catch {
      setStatus({ kind: 'shown', text });
    }
  };
  const save = async (): Promise<void> => {
    setStatus({ kind: 'busy' });
    try {
      const result = await onExport(true);
      setStatus(result.savedTo === null ? { kind: 'idle' } : { kind: 'saved', path: result.savedTo });
    } catch (error) {
      setStatus({ kind: 'error', message: messageOf(error) });
    }
  };

  const busy = status.kind === 'busy';
  return (
    <section className="card export-card" aria-labelledby="nc-export">
      <div className="export-row">
        <div className="export-text">
          <h2 id="nc-export" className="card-title">
            Asking someone for help?
          </h2>
          <p className="muted small">
            This report as text, with the app’s version and where its log files are, to send along.
          </p>
          <p
            className={`export-status small ${status.kind === 'shown' ? 'muted' : 'ok'}`}
            role="status"
            aria-live="polite"
          >
            {status.kind === 'copied' && 'Copied to the clipboard.'}
            {status.kind === 'saved' && `Saved to ${status.path}`}
            {status.kind === 'shown' && 'Couldn’t copy automatically: select the report below and copy it.'}
          </p>
        </div>
        <div className="export-actions">
          <button type="button" className="button button-ghost" onClick={() => void copy()} disabled={busy}>
            {status.kind === 'copied' ? <CheckIcon /> : <CopyIcon />}
            <span>{status.kind === 'copied' ? 'Copied' : 'Copy report'}</span>
          </button>
          {canSave && (
            <button type="button" className="button button-ghost" onClick={() => void save()} disabled={busy}>
              Save report…
            </button>
          )}
        </div>
      </div>
      {status.kind === 'error' && (
        <p className="field-error" role="alert">
          {status.message}
        </p>
      )}
      {status.kind === 'shown' && (
        <textarea className="input export-text-box mono" readOnly value={status.text} aria-label="Report text" />
      )}
    </section>
  );
}
