import { useState } from 'react';
import type { ActionResult } from '../../state/actionResult';
import { joinFailureView } from '../../logic/joinFailure';

/**
 * A failed join: what happened in plain words, the raw cause (errno, what was tried) behind a "Details"
 * toggle, a way to the network check when it may help, and "Try anyway" when the room may simply not
 * answer discovery (a gale.net server without it).
 */
export function JoinFailureAlert({
  failure,
  onOpenNetcheck,
  onTryAnyway,
}: {
  failure: Extract<ActionResult, { ok: false }>;
  onOpenNetcheck: () => void;
  /** Offered only when given. */
  onTryAnyway?: () => void;
}) {
  const [showDetail, setShowDetail] = useState(false);
  const view = joinFailureView(failure.code);
  return (
    <div className={view.askPassword ? 'alert alert-warning' : 'alert alert-error'} role="alert">
      <p className="alert-text">
        <strong>{view.title}.</strong> {failure.message}
      </p>
      <div className="alert-actions">
        {onTryAnyway && (
          <button type="button" className="button button-ghost button-small" onClick={onTryAnyway}>
            Try anyway
          </button>
        )}
        {view.suggestNetcheck && (
          <button type="button" className="link-button" onClick={onOpenNetcheck}>
            Run the network check
          </button>
        )}
        {failure.detail && (
          <button
            type="button"
            className="link-button"
            aria-expanded={showDetail}
            onClick={() => setShowDetail((shown) => !shown)}
          >
            {showDetail ? 'Hide details' : 'Details'}
          </button>
        )}
      </div>
      {showDetail && failure.detail && (
        <pre className="alert-detail mono" data-testid="join-failure-detail">
          {failure.detail}
        </pre>
      )}
    </div>
  );
}
