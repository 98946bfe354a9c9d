import type { ActionResult } from '../state/actionResult';
import { joinFailureView } from '../logic/joinFailure';

/** A failed join: what happened, in the backend's words, and a way to the network check when it may help. */
export function JoinFailureAlert({
  failure,
  onOpenNetcheck,
}: {
  failure: Extract<ActionResult, { ok: false }>;
  onOpenNetcheck: () => void;
}) {
  const view = joinFailureView(failure.code);
  return (
    <div className={view.askPassword ? 'alert alert-warning' : 'alert alert-error'} role="alert">
      <strong>{view.title}.</strong> {failure.message}
      {view.suggestNetcheck && (
        <>
          {' '}
          <button type="button" className="link-button" onClick={onOpenNetcheck}>
            Run the network check
          </button>
        </>
      )}
    </div>
  );
}
