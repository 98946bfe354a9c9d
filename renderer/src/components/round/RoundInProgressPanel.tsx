import type { LobbyView } from '../../../../shared/ipc/schemas/lobby';
import { GamepadIcon } from '../common/Icons';

/** "Round in progress": shown in the game slot when the game stage cannot be (e.g. it failed to load). */
export function RoundInProgressPanel({ view, onEndRound }: { view: LobbyView; onEndRound?: () => void }) {
  const players = view.state?.players.length ?? 0;
  return (
    <section className="card round-panel" aria-labelledby="round-panel-title">
      <div className="round-panel-glow" aria-hidden="true" />
      <span className="round-panel-icon" aria-hidden="true">
        <GamepadIcon size={40} />
      </span>
      <p className="eyebrow">Live</p>
      <h2 id="round-panel-title" className="round-panel-title">
        Round in progress
      </h2>
      <p className="muted">
        {players} players are in the round. Stay in the room: when the round ends you’re back in the lobby.
      </p>
      {view.role === 'host' && onEndRound && (
        <button type="button" className="button button-ghost" onClick={onEndRound}>
          End round and return to lobby
        </button>
      )}
    </section>
  );
}
