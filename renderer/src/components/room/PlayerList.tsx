import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { LobbyState } from '../../../../shared/lobby/lobbyState';
import { describePath, describePing } from '../../logic/ping';
import { awayLabel, useSecondTick } from '../../logic/away';
import { CheckIcon, CloseIcon, CrownIcon, WarningIcon } from '../common/Icons';
import { PlayerAvatar } from '../common/PlayerAvatar';

/**
 * Asks on the row before a kick. A confirm rather than an undo toast: a kick closes the player's connection at
 * once, and no undo can bring them back into the room (they would have to join again).
 */
function KickConfirm({ name, onConfirm, onCancel }: { name: string; onConfirm: () => void; onCancel: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onCancel();
  };
  return (
    <div className="kick-confirm" role="group" aria-label={`Remove ${name}?`} onKeyDown={onKeyDown}>
      <span className="kick-confirm-text">Remove {name}?</span>
      <button type="button" className="button button-danger button-small" onClick={onConfirm}>
        Remove
      </button>
      <button ref={cancel} type="button" className="button button-ghost button-small" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/**
 * The room's players: who hosts, who is you, path and ping, ready state; the host can remove guests (after a
 * confirm). A guest whose link went silent is greyed with its seat's countdown ("Reconnecting… 23 s"), one the
 * host has not heard for a moment greyed as "reconnecting…" (no countdown); one that
 * offered the native path but fell back to gale.net v1 carries a warning line under its row.
 */
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
  const now = useSecondTick(state.players.some((p) => p.awayUntil !== undefined));
  const [confirming, setConfirming] = useState<number | null>(null);
  const kickButtons = useRef(new Map<number, HTMLButtonElement>());
  const cancelKick = (playerId: number): void => {
    setConfirming(null);
    // Back to the button that asked, so keyboard users keep their place.
    requestAnimationFrame(() => kickButtons.current.get(playerId)?.focus());
  };
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
          const away = awayLabel(player, now);
          return (
            <li
              key={player.id}
              className={`player-row${isYou ? ' player-row-you' : ''}${away ? ' player-row-away' : ''}`}
              data-testid="player-row"
            >
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
              {canKick && !player.host && confirming === player.id ? (
                <KickConfirm
                  name={player.name}
                  onConfirm={() => {
                    setConfirming(null);
                    onKick(player.id, player.name);
                  }}
                  onCancel={() => cancelKick(player.id)}
                />
              ) : (
                <>
                  <span className={`player-ping ping-${ping.tone}`} title={player.host ? undefined : path.title}>
                    {player.host ? null : away ? (
                      <span data-testid="player-away">{away}</span>
                    ) : (
                      <>
                        <span className={`path-badge path-${player.path ?? 'lan'}`} data-testid="player-path">
                          {path.label}
                        </span>
                        {/* The host's first measurement of a new guest comes within its ping interval (2 s). */}
                        {player.pingMs === null ? 'measuring…' : ping.label}
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
                      ref={(node) => {
                        if (node) kickButtons.current.set(player.id, node);
                        else kickButtons.current.delete(player.id);
                      }}
                      type="button"
                      className="icon-button icon-button-danger"
                      aria-label={`Remove ${player.name} from the room`}
                      title={`Remove ${player.name}`}
                      onClick={() => setConfirming(player.id)}
                    >
                      <CloseIcon />
                    </button>
                  ) : (
                    <span className="icon-button-spacer" aria-hidden="true" />
                  )}
                </>
              )}
              {player.fellBackToV1 && (
                <span
                  className="player-warning"
                  data-testid="player-v1-fallback"
                  title="Its LAN Party offered the native path, but the connection fell back to gale.net v1: something on the network may have stripped the offer."
                >
                  <WarningIcon size={14} /> {player.name} joined over the older gale.net v1 path (no message
                  authentication).
                </span>
              )}
            </li>
          );
        })}
        {open > 0 && (
          // One compact line for every free seat: the room's players, not empty rows, take the space.
          <li className="player-row player-row-open" data-testid="open-slots">
            <span className="avatar-slot" aria-hidden="true" />
            <span className="player-name muted">{open === 1 ? '1 open slot' : `${open} open slots`}</span>
          </li>
        )}
      </ul>
    </section>
  );
}
