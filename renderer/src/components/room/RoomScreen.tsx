import { useState } from 'react';
import { GAMES } from '../../../../shared/games/registry';
import type { LobbyView } from '../../../../shared/ipc/schemas/lobby';
import { startBlocker } from '../../../../shared/ipc/startBlocker';
import type { ActionResult } from '../../state/actionResult';
import { ChatPanel } from './ChatPanel';
import { CodeDisplay } from './CodeDisplay';
import { InternetCodeDisplay } from './InternetCodeDisplay';
import { GameSlot } from '../round/GameSlot';
import { CheckIcon, LockIcon } from '../common/Icons';
import { PlayerList } from './PlayerList';
import { RoomEndedCard } from './RoomEndedCard';
import { Spinner } from '../common/Spinner';
import { useMountFocus } from '../common/useMountFocus';

/** What the room screen can do; each resolves with how it went. */
export interface RoomActions {
  setReady(ready: boolean): Promise<ActionResult>;
  sendChat(text: string): Promise<ActionResult>;
  kick(playerId: number): Promise<ActionResult>;
  startRound(): Promise<ActionResult>;
  endRound(): Promise<ActionResult>;
  /** The host ends the round now, with results ("End round"). */
  finishRound(): Promise<ActionResult>;
  leaveRoom(): Promise<ActionResult>;
  openNetcheck(): void;
}

/** The room: code and addresses, players, chat, and ready / start / leave; the game stage while playing. */
export function RoomScreen({ view, actions }: { view: LobbyView; actions: RoomActions }) {
  const [error, setError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [roundOver, setRoundOver] = useState(false);
  // A guest who left the winner screen sees the lobby until the room gets there too (the host's results end).
  const [leftResults, setLeftResults] = useState(false);
  const [wasPlaying, setWasPlaying] = useState(view.state?.phase === 'playing');
  const heading = useMountFocus<HTMLHeadingElement>();
  const state = view.state;
  if (view.status === 'ended' || !state) {
    return <RoomEndedCard view={view} onBack={() => void actions.leaveRoom()} />;
  }
  const isHost = view.role === 'host';
  const me = state.players.find((p) => p.id === view.you);
  const blocker = startBlocker(state);
  const playing = state.phase === 'playing';
  if (wasPlaying !== playing) {
    setWasPlaying(playing);
    setLeftResults(false);
  }
  const showRound = playing && !leftResults;
  const addresses =
    view.addresses.length > 0 ? view.addresses.map((a) => a.address) : view.target ? [view.target.host] : [];

  const act = async (action: () => Promise<ActionResult>): Promise<void> => {
    const result = await action();
    setError(result.ok ? null : result.message);
  };
  const leave = async (): Promise<void> => {
    setLeaving(true);
    await act(actions.leaveRoom);
    setLeaving(false);
  };

  return (
    <section className="screen room" aria-labelledby="room-title">
      <div className="room-body" data-testid="room-body">
        <div className={playing ? 'room-banner room-banner-compact card' : 'room-banner card'}>
          <div className="room-info">
            <p className="eyebrow">{isHost ? 'You’re hosting' : 'You’re in the room'}</p>
            <h1 id="room-title" className="room-title" ref={heading} tabIndex={-1}>
              {state.roomName}
              {state.passwordProtected && (
                <span className="room-lock" title="Password protected">
                  <LockIcon size={18} />
                  <span className="visually-hidden">Password protected</span>
                </span>
              )}
            </h1>
            <dl className="room-facts">
              <div>
                <dt>Game</dt>
                <dd data-testid="room-game">{GAMES.find(state.gameId)?.name ?? state.gameId}</dd>
              </div>
              <div>
                <dt>Players</dt>
                <dd>
                  {state.players.length} of {state.capacity}
                </dd>
              </div>
              <div>
                <dt>{isHost ? 'LAN address' : 'Host'}</dt>
                <dd className="mono">
                  {!isHost && view.internet
                    ? 'over the internet'
                    : addresses.length > 0
                      ? addresses.map((a) => `${a}:${view.port}`).join(' · ')
                      : '—'}
                </dd>
              </div>
            </dl>
          </div>
          {view.code && !(view.internet && !isHost) && (
            <CodeDisplay code={view.code} shortCode={view.shortCode} shortCodeMissing={view.shortCodeMissing} />
          )}
          {view.internet && <InternetCodeDisplay internet={view.internet} roomName={state.roomName} />}
        </div>
        {isHost && !view.discoverable && (
          <div className="alert alert-warning" role="status">
            LAN lists won’t show this room (the discovery port is busy). Friends can still join with the code.{' '}
            <button type="button" className="link-button" onClick={actions.openNetcheck}>
              Network check
            </button>
          </div>
        )}
        <div className="room-grid">
          {showRound ? (
            <GameSlot
              view={view}
              onEndRound={() => void act(actions.endRound)}
              onRoundOver={setRoundOver}
              resultsActions={
                isHost
                  ? { playAgain: () => void act(actions.startRound), backToLobby: () => void act(actions.endRound) }
                  : { backToLobby: () => setLeftResults(true) }
              }
            />
          ) : (
            <PlayerList
              state={state}
              you={view.you}
              canKick={isHost}
              onKick={(playerId) => void act(() => actions.kick(playerId))}
            />
          )}
          <ChatPanel chat={state.chat} players={state.players} you={view.you} onSend={actions.sendChat} />
        </div>
      </div>
      <div className="action-bar">
        <button type="button" className="button button-danger-ghost" onClick={() => void leave()} disabled={leaving}>
          {leaving && <Spinner />}
          {isHost ? 'Close room' : 'Leave room'}
        </button>
        <p id="room-action-status" className="action-status" role="status" aria-live="polite">
          {error ? (
            <span className="field-error">{error}</span>
          ) : leftResults && playing ? (
            'Round over: the room is back in the lobby in a moment.'
          ) : playing ? (
            roundOver ? (
              'Round over'
            ) : (
              'Round in progress'
            )
          ) : isHost ? (
            (blocker ?? 'Everyone is ready. Start when you like!')
          ) : me?.ready ? (
            'Waiting for the host to start the round.'
          ) : (
            'Ready up when you are set.'
          )}
        </p>
        {leftResults && playing ? (
          <button type="button" className="button button-ghost" onClick={() => setLeftResults(false)}>
            Back to the results
          </button>
        ) : playing ? (
          // The host's "End round": the round ends now as if its time had run out, with the results so far. Gone
          // once the winner screen is up (its own buttons take over); the bar keeps its height without it.
          isHost && !roundOver ? (
            <button
              type="button"
              className="button button-ghost"
              data-testid="end-round"
              onClick={() => void act(actions.finishRound)}
            >
              End round
            </button>
          ) : null
        ) : isHost ? (
          <button
            type="button"
            className="button button-primary button-large"
            // aria-disabled, not disabled: the button stays focusable, so keyboard and screen-reader users reach it
            // and hear why it waits (the status it is described by).
            aria-disabled={blocker !== null}
            aria-describedby="room-action-status"
            onClick={() => {
              if (blocker === null) void act(actions.startRound);
            }}
          >
            Start round
          </button>
        ) : (
          <button
            type="button"
            className={me?.ready ? 'button button-ready button-large' : 'button button-primary button-large'}
            aria-pressed={me?.ready ?? false}
            onClick={() => void act(() => actions.setReady(!(me?.ready ?? false)))}
          >
            {me?.ready && <CheckIcon />}
            {me?.ready ? 'Ready!' : 'I’m ready'}
          </button>
        )}
      </div>
    </section>
  );
}
