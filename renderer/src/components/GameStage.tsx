import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { bindKeyboard } from '../game/keyboardInput';
import type { GameApi } from '../game/gameApi';
import { GameSession } from '../game/gameSession';
import { GameHud } from '../games/tag/GameHud';
import { CONNECTING_HUD, hudOf, sameHud, type HudState } from '../games/tag/hudModel';
import { KeyboardControls } from '../game/keyboardControls';
import { NetGraph } from '../game/NetGraph';
import { startRenderLoop } from '../game/renderLoop';
import { ResultsOverlay } from '../game/ResultsOverlay';
import { resultsView } from '../game/resultsModel';
import { Scoreboard } from '../games/tag/Scoreboard';
import { useGameApi } from '../game/useGameApi';
import type { LobbyView } from '../../../shared/ipc/schemas/lobby';
import '../game/gameStage.css';

/** Props of {@link GameStage}, as the room screen passes them. */
export interface GameStageProps {
  /** The room (our player id and role come from it). */
  readonly view: LobbyView;
  /** The host's "Back to lobby now" on the winner screen. */
  readonly onEndRound?: () => void;
  /** The app's API (LanPartyApi satisfies it); without it the stage opens its own link to the backend. */
  readonly api?: GameApi;
}

/** How often the HUD (scores, timer, "it") re-renders; the arena itself is drawn every display frame. */
const HUD_MS = 150;
const CONTROLS_HELP_ID = 'game-controls-help';
const clock = (): number => performance.now() / 1000;

/**
 * The minigame screen, mounted while the room is playing: the arena canvas (drawn by a requestAnimationFrame loop in
 * plain TS, not React), keyboard controls on the focused arena, the HUD, the net graph and the winner screen.
 */
export function GameStage({ view, onEndRound, api }: GameStageProps) {
  const resolved = useGameApi(api);
  if (resolved.api === null) {
    return (
      <section className="game-stage" aria-label="Tag game">
        <p className="game-connecting" role="status">
          {resolved.error ?? 'Connecting to the game…'}
        </p>
      </section>
    );
  }
  return <GamePlay api={resolved.api} you={view.you ?? 0} isHost={view.role === 'host'} onEndRound={onEndRound} />;
}

/** The game itself, once the API is there. */
function GamePlay({
  api,
  you,
  isHost,
  onEndRound,
}: {
  api: GameApi;
  you: number;
  isHost: boolean;
  onEndRound: (() => void) | undefined;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const arenaRef = useRef<HTMLDivElement>(null);
  const [hud, setHud] = useState<HudState>(CONNECTING_HUD);
  const [focused, setFocused] = useState(false);
  const [, changed] = useReducer((n: number) => n + 1, 0);
  const playerId = String(you);
  const session = useMemo(
    () => new GameSession({ api, you: playerId, interpolationDelay: isHost ? 0.05 : 0.1, onChange: changed }),
    [api, playerId, isHost],
  );

  useEffect(() => {
    const canvas = canvasRef.current;
    const arena = arenaRef.current;
    if (canvas === null || arena === null) return;
    session.start(clock).catch(() => undefined);
    const controls = new KeyboardControls();
    const unbind = bindKeyboard(arena, controls);
    const loop = startRenderLoop({ canvas, source: session, controls });
    const timer = setInterval(() => {
      const frame = session.sample(clock());
      const next = frame === null ? CONNECTING_HUD : hudOf(frame, session.look);
      setHud((previous) => (sameHud(previous, next) ? previous : next));
      // Where we are, for tests and diagnostics (not React state: it changes every tick).
      const self = frame?.players.find((p) => p.self);
      arena.dataset.self = self ? `${Math.round(self.x)},${Math.round(self.y)}` : '';
    }, HUD_MS);
    arena.focus({ preventScroll: true });
    return () => {
      clearInterval(timer);
      loop.stop();
      unbind();
      session.dispose();
    };
  }, [session]);

  const snapshotCount = useCallback(() => session.takeSnapshotCount(), [session]);
  const results = session.finalResults;
  const ended = session.endedEarly;
  const backToLobby = isHost ? onEndRound : undefined;
  const focusArena = () => arenaRef.current?.focus();

  return (
    <section className="game-stage" aria-label="Tag game">
      <GameHud hud={hud} />
      <div className="game-main">
        <div
          ref={arenaRef}
          className="game-arena"
          tabIndex={0}
          role="application"
          aria-roledescription="game"
          aria-label="Tag arena"
          aria-describedby={CONTROLS_HELP_ID}
          data-testid="game-arena"
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
        >
          <canvas ref={canvasRef} className="game-canvas" aria-hidden="true" data-testid="game-canvas" />
          {!focused && !results && !ended && (
            <button type="button" className="game-focus-hint" onClick={focusArena}>
              Click here (or Tab to the arena) to take control
            </button>
          )}
          {results && (
            <ResultsOverlay view={resultsView(results, session.look, playerId)} onBackToLobby={backToLobby} />
          )}
          {!results && ended && (
            <div className="game-overlay" role="status">
              <div className="results-card">
                <p className="results-kicker">Round stopped</p>
                <h2 className="results-title">{ended.reason}</h2>
                <p className="results-back">Back to the lobby…</p>
              </div>
            </div>
          )}
        </div>
        <aside className="game-side">
          <Scoreboard rows={hud.rows} />
          <NetGraph api={api} snapshotCount={snapshotCount} />
          <section className="game-help" id={CONTROLS_HELP_ID} aria-label="Controls">
            <h3>Controls</h3>
            <p>
              <kbd>W</kbd> <kbd>A</kbd> <kbd>S</kbd> <kbd>D</kbd> or arrow keys to move. <kbd>Space</kbd> to tag when
              you are “it”. Stay away from whoever is it: your score is the time you spend not being it.
            </p>
          </section>
        </aside>
      </div>
    </section>
  );
}
