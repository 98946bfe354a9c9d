import type { LobbyView, LobbyViewEnd } from '../../../../shared/ipc/schemas/lobby';
import { WarningIcon } from '../common/Icons';

/** Titles of the endings a stay in the room has (a refused join never gets here); others read "The room ended". */
const titles: Partial<Record<LobbyViewEnd['code'], string>> = {
  kicked: 'You were removed from the room',
  'host-closed': 'The room was closed',
  'host-gone': 'Lost contact with the host',
};

/** Shown when our stay in a room ended (host closed it, lost contact, removed): why, and the way back. */
export function RoomEndedCard({ view, onBack }: { view: LobbyView; onBack: () => void }) {
  const code = view.end?.code ?? 'host-gone';
  return (
    <section className="screen screen-ended" aria-labelledby="ended-title">
      <div className="card ended-card" role="alert">
        <span className="ended-icon" aria-hidden="true">
          <WarningIcon size={28} />
        </span>
        {view.state && <p className="eyebrow">{view.state.roomName}</p>}
        <h1 id="ended-title" className="center-title">
          {titles[code] ?? 'The room ended'}
        </h1>
        <p className="muted">{view.end?.message ?? 'You are no longer in the room.'}</p>
        {code === 'host-gone' && (
          <p className="muted small">
            The host’s computer may have gone to sleep or left the network. If it keeps happening, run the network check
            on both computers.
          </p>
        )}
        <button type="button" className="button button-primary" onClick={onBack} autoFocus>
          Back to home
        </button>
      </div>
    </section>
  );
}
