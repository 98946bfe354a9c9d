import type { LobbyState } from '../../../shared/lobby/lobbyState';
import { describePath, describePing } from '../logic/ping';
import { CheckIcon, CloseIcon, CrownIcon } from './Icons';
import { PlayerAvatar } from './PlayerAvatar';

/** The room's players: who hosts, who is you, path and ping, ready state; the host can remove guests. */
export function PlayerList({
  state,
  you,
  canKick,
  onKick,
}: {
  state: LobbyState;
  you: number | null;
  canKick: boolean;
  onKick: (playerId: number, name: string) => void;
}) {
  const open = Math.max(0, state.capacity - state.players.length);
  return (
    <section className="card players" aria-labelledby="players-title">
      <div className="card-head">
        <h2 id="players-title" className="card-title">
          Players
        </h2>
        <span className="pill">
          {state.players.length} / {state.capacity}
        </span>
      </div>
      <ul className="player-list" aria-labelledby="players-title">
        {state.players.map((player) => {
          const ping = describePing(player.pingMs);
          const path = describePath(player.path);
          const isYou = player.id === you;
          return (
            <li key={player.id} className={`player-row${isYou ? ' player-row-you' : ''}`} data-testid="player-row">
              <PlayerAvatar name={player.name} color={player.colour} />
              <span className="player-name">
                <span className="player-name-text">{player.name}</span>
                {isYou && <span className="tag">You</span>}
                {player.host && (
                  <span className="tag tag-accent">
                    <CrownIcon /> Host
                  </span>
                )}
              </span>
              <span className={`player-ping ping-${ping.tone}`} title={player.host ? undefined : path.title}>
                {player.host ? null : (
                  <>
                    <span className={`path-badge path-${player.path ?? 'lan'}`} data-testid="player-path">
                      {path.label}
                    </span>
                    {ping.label}
                    <span className="visually-hidden"> ping</span>
                  </>
                )}
              </span>
              <span className={`ready-state${player.host || player.ready ? ' ready-state-on' : ''}`}>
                {player.host ? (
                  'Hosting'
                ) : player.ready ? (
                  <>
                    <CheckIcon size={14} /> Ready
                  </>
                ) : (
                  'Not ready'
                )}
              </span>
              {canKick && !player.host ? (
                <button
                  type="button"
                  className="icon-button icon-button-danger"
                  aria-label={`Remove ${player.name} from the room`}
                  title={`Remove ${player.name}`}
                  onClick={() => onKick(player.id, player.name)}
                >
                  <CloseIcon />
                </button>
              ) : (
                <span className="icon-button-spacer" aria-hidden="true" />
              )}
            </li>
          );
        })}
        {Array.from({ length: Math.min(open, 2) }, (_, i) => (
          <li key={`open-${i}`} className="player-row player-row-open" aria-hidden="true">
            <span className="avatar-slot" />
            <span className="player-name muted">Open slot</span>
          </li>
        ))}
      </ul>
      {open > 2 && <p className="muted small slots-more">+{open - 2} more open slots</p>}
    </section>
  );
}
