import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type CSSProperties } from 'react';
import type { LobbyView } from '../../../../shared/ipc/schemas/lobby';
import type { GameApi } from '../../game/gameApi';
import type { GameRendererModule } from '../../game/gameRenderer';
import { GameSession } from '../../game/gameSession';
import { interpolationSettingOf } from '../../game/interpolationSetting';
import { KeyboardControls } from '../../game/controls/keyboardControls';
import { bindKeyboard } from '../../game/controls/keyboardInput';
import { NetGraph } from '../../game/netGraph/NetGraph';
import { startRenderLoop } from '../../game/renderLoop';
import { stageLayout, type StageLayout } from '../../game/stageLayout';
import { ResultsOverlay, type ResultsActions } from '../../game/results/ResultsOverlay';
import { TouchPad } from '../../game/controls/TouchPad';
import { resultsView } from '../../game/results/resultsModel';
import { GAME_RENDERERS } from '../../games/registry';
import { useAppStore } from '../../state/AppStoreContext';
import '../../game/gameStage.css';

/** Props of {@link GameStage}, as the room screen passes them. */
export interface GameStageProps {
  /** The room (our player id, role and game come from it). */
  readonly view: LobbyView;
  /** The host ends the results for everyone ("Back to the lobby" on the winner screen). */
  readonly onEndRound?: () => void;
  /** Told whether the winner screen is up (the room's action bar then says "Round over"). */
  readonly onRoundOver?: (over: boolean) => void;
  /** The winner screen's buttons (the room's Play again and Back to the lobby); default the host's onEndRound. */
  readonly resultsActions?: ResultsActions;
}

/** How often the HUD re-renders; the game itself is drawn every display frame. */
const HUD_MS = 150;
/**
 * The stage's layout rules, CSS pixels (gameStage.css uses the same gap and side width): the arena keeps 16:9, the
 * side panels sit beside it only while it stays at least 970 px wide (players 24 px across on the 1600-unit arena,
 * with the canvas's 4 px margin and 1 px border), and it is never laid out under 480 px wide.
 */
const LAYOUT = { aspect: 16 / 9, sideWidth: 280, gap: 8, besideMinArenaWidth: 970, minArenaWidth: 480 } as const;
const INITIAL_LAYOUT: StageLayout = { arena: { width: 960, height: 540 }, side: 'below' };
const CONTROLS_HELP_ID = 'game-controls-help';
const clock = (): number => performance.now() / 1000;

/**
 * The minigame screen, mounted while the room is playing, for whichever game the room plays (its renderer module
 * from renderer/src/games/registry.ts): the canvas (drawn by a requestAnimationFrame loop in plain TS, not React),
 * keyboard controls on the focused canvas, the game's HUD and side panel, the net graph and the winner screen.
 */
export function GameStage({ view, onEndRound, onRoundOver, resultsActions }: GameStageProps) {
  // The app's one link to the backend: the preload's bridge in Electron, the one WebSocket in the browser.
  const api = useAppStore((s) => s.api);
  const gameId = view.state?.gameId ?? '';
  const game = GAME_RENDERERS.find(gameId);
  if (game === undefined) {
    return (
      <section className="game-stage" aria-label="Game">
        <p className="game-connecting" role="alert">
          This version of LAN Party cannot show the game “{gameId}”.
        </p>
      </section>
    );
  }
  if (api === null) {
    return (
      <section className="game-stage" aria-label={`${game.game.name} game`}>
        <p className="game-connecting" role="status">
          Connecting to the game…
        </p>
      </section>
    );
  }
  return (
    <GamePlay
      game={game}
      api={api}
      you={view.you ?? 0}
      isHost={view.role === 'host'}
      resultsActions={resultsActions ?? (view.role === 'host' && onEndRound ? { backToLobby: onEndRound } : undefined)}
      onRoundOver={onRoundOver}
    />
  );
}

/** The game itself, once the API is there. */
function GamePlay({
  game,
  api,
  you,
  isHost,
  resultsActions,
  onRoundOver,
}: {
  game: GameRendererModule;
  api: GameApi;
  you: number;
  isHost: boolean;
  resultsActions: ResultsActions | undefined;
  onRoundOver: ((over: boolean) => void) | undefined;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const arenaRef = useRef<HTMLDivElement>(null);
  const sizerRef = useRef<HTMLDivElement>(null);
  const hudRef = useRef<HTMLDivElement>(null);
  const [layout, setLayout] = useState<StageLayout>(INITIAL_LAYOUT);
  const [focused, setFocused] = useState(false);
  const [, changed] = useReducer((n: number) => n + 1, 0);
  const playerId = String(you);
  const session = useMemo(
    () =>
      new GameSession({
        game: game.game,
        api,
        you: playerId,
        interpolationDelay: interpolationSettingOf(window.location.search, isHost),
        onChange: changed,
      }),
    [game, api, playerId, isHost],
  );
  const [hud, setHud] = useState<unknown>(() => game.hud(null, session.look));
  const { controls } = game.game;
  const keyboard = useMemo(() => new KeyboardControls(controls.buttons), [controls]);

  useEffect(() => {
    const canvas = canvasRef.current;
    const arena = arenaRef.current;
    if (canvas === null || arena === null) return;
    session.start(clock).catch(() => undefined);
    const unbind = bindKeyboard(arena, keyboard);
    const source = { take: () => controls.read(keyboard.take()) };
    const loop = startRenderLoop({ canvas, source: session, controls: source, renderer: game.createRenderer(canvas) });
    const timer = setInterval(() => {
      const frame = session.sample(clock());
      const next = game.hud(frame, session.look);
      setHud((previous: unknown) => (game.sameHud(previous, next) ? previous : next));
      // Where we are, for tests and diagnostics (not React state: it changes every tick).
      const self = game.selfPosition(frame);
      arena.dataset.self = self ? `${Math.round(self.x)},${Math.round(self.y)}` : '';
    }, HUD_MS);
    arena.focus({ preventScroll: true });
    return () => {
      clearInterval(timer);
      loop.stop();
      unbind();
      session.dispose();
    };
  }, [game, session, keyboard, controls]);

  useEffect(() => {
    // The sizer is the space the stage may fill (the visible room body); the HUD takes its share off the top.
    const sizer = sizerRef.current;
    const hudBox = hudRef.current;
    if (sizer === null || hudBox === null || typeof ResizeObserver !== 'function') return;
    const measure = (): void => {
      const space = { width: sizer.clientWidth, height: sizer.clientHeight - hudBox.offsetHeight - LAYOUT.gap };
      const next = stageLayout({ ...space, ...LAYOUT });
      setLayout((previous) =>
        previous.side === next.side &&
        previous.arena.width === next.arena.width &&
        previous.arena.height === next.arena.height
          ? previous
          : next,
      );
    };
    const observer = new ResizeObserver(measure);
    observer.observe(sizer);
    observer.observe(hudBox);
    measure();
    return () => observer.disconnect();
  }, []);

  const snapshotCount = useCallback(() => session.takeSnapshotCount(), [session]);
  const results = session.finalResults;
  const ended = session.endedEarly;
  const over = results !== null;
  useEffect(() => {
    onRoundOver?.(over);
  }, [onRoundOver, over]);
  useEffect(() => () => onRoundOver?.(false), [onRoundOver]);
  const focusArena = () => arenaRef.current?.focus();
  const name = game.game.name;
  // Behind the winner screen the HUD and the panels stay where they were, inert: nothing moves, nothing takes focus.
  const behind = results !== null || ended !== null;

  return (
    <section
      className="game-stage"
      aria-label={`${name} game`}
      data-side={layout.side}
      data-over={behind ? '' : undefined}
      data-testid="game-stage"
      style={{ '--arena-w': `${layout.arena.width}px`, '--arena-h': `${layout.arena.height}px` } as CSSProperties}
    >
      <div ref={sizerRef} className="game-sizer" aria-hidden="true" />
      <div ref={hudRef} className="game-hud-slot" inert={behind}>
        {game.renderHud(hud)}
      </div>
      <div
        ref={arenaRef}
        className="game-arena"
        tabIndex={0}
        role="application"
        aria-roledescription="game"
        aria-label={`${name} arena`}
        aria-describedby={CONTROLS_HELP_ID}
        data-testid="game-arena"
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
      >
        <canvas ref={canvasRef} className="game-canvas" aria-hidden="true" data-testid="game-canvas" />
        {!results && !ended && game.renderOverlay?.(hud)}
        {!results && !ended && (
          <TouchPad
            buttons={controls.buttons}
            onDown={(id) => keyboard.touch(id)}
            onUp={(id) => keyboard.untouch(id)}
          />
        )}
        {!focused && !results && !ended && (
          <button type="button" className="game-focus-hint" onClick={focusArena}>
            Click here (or Tab to the arena) to take control
          </button>
        )}
        {results && (
          <ResultsOverlay
            view={resultsView(results, session.look, playerId, game.game.results.headline)}
            wording={game.game.results}
            actions={resultsActions}
          />
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
      <aside className="game-side" inert={behind}>
        {game.renderSide(hud)}
        <NetGraph api={api} snapshotCount={snapshotCount} />
        <section className="game-help" id={CONTROLS_HELP_ID} aria-label="Controls">
          <h2>Controls</h2>
          {game.renderHelp()}
        </section>
      </aside>
    </section>
  );
}
