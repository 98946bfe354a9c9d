import { MAX_INPUTS_PER_MESSAGE } from '../../../shared/game/gameProtocol';
import type { InterpolationDelaySetting } from '../../../shared/game/adaptiveInterpolationDelay';
import type { GameDefinition, GameInput, GameView } from '../../../shared/games/gameDefinition';
import type {
  GameCurrent,
  GameEnded,
  GameResultsPayload,
  GameRosterPayload,
  GameSnapshotEvent,
} from '../../../shared/ipc/schemas/game';
import type { GameApi } from './gameApi';
import { fallbackLook, type PlayerLook } from './playerLook';

/** Options of {@link GameSession}; `C` and `F` are the game's controls and view frame. */
export interface GameSessionOptions<C, F> {
  /** The room's game (its client view: prediction and interpolation). */
  readonly game: Pick<GameDefinition<unknown, GameInput, object, unknown, C, F>, 'createView'>;
  readonly api: GameApi;
  /** The local player's game id ('0' for the host). */
  readonly you: string;
  /**
   * How far in the past others are drawn: 'adaptive' (how old the newest snapshot is at nearly every frame, the
   * app's choice), or fixed seconds (the old 0.05 s on the host and 0.1 s on guests, for comparison benches).
   */
  readonly interpolationDelay: InterpolationDelaySetting;
  /** Called when roster, results or the end of the game change (a few times per game, never per frame). */
  readonly onChange?: () => void;
}

/**
 * The renderer's side of one room's games, free of the DOM: follows the game events, keeps one view of the game
 * (GameDefinition.createView) per game session id, sends the inputs each frame produces and answers what to draw.
 * Per frame: `frame(now, controls)`.
 */
export class GameSession<C = unknown, F = unknown> {
  private view: GameView<GameInput, object, C, F> | null = null;
  private gameId: number | null = null;
  private looks = new Map<string, PlayerLook>();
  private resultsValue: GameResultsPayload | null = null;
  private endedValue: GameEnded | null = null;
  private readonly offs: (() => void)[] = [];
  private snapshotCount = 0;
  /** The frame last drawn in this game, what the HUD shows. */
  private drawn: F | null = null;
  /** Inputs the backend refused or could not take (between games, connection trouble). */
  inputsRejected = 0;
  inputsSent = 0;

  constructor(private readonly options: GameSessionOptions<C, F>) {}

  /** Subscribes to the game events, then catches up with `game.get` (events that came meanwhile win). */
  async start(now: () => number): Promise<void> {
    const { api } = this.options;
    this.offs.push(
      api.onGameRoster((r) => this.roster(r)),
      api.onGameSnapshot((e) => this.snapshot(e, now())),
      api.onGameResults((r) => this.results(r)),
      api.onGameEnded((e) => this.ended(e)),
    );
    this.catchUp(await api['game.get']());
  }

  /** Stops listening. */
  dispose(): void {
    for (const off of this.offs.splice(0)) off();
  }

  /** The current game's id, null before any. */
  get game(): number | null {
    return this.gameId;
  }

  /** Results of the current game, once it is over. */
  get finalResults(): GameResultsPayload | null {
    return this.resultsValue;
  }

  /** Why the current game stopped without results, if it did. */
  get endedEarly(): GameEnded | null {
    return this.endedValue;
  }

  /** A player's name and colour. */
  readonly look = (id: string): PlayerLook => this.looks.get(id) ?? fallbackLook(id);

  /** One display frame: runs the local ticks due, sends their inputs, and returns where to draw everyone. */
  frame(now: number, controls: C): F | null {
    const view = this.view;
    if (view === null) return null;
    const inputs = view.advance(now, controls);
    if (inputs.length > 0 && this.resultsValue === null && this.endedValue === null) {
      this.inputsSent += inputs.length;
      const batch = inputs.slice(-MAX_INPUTS_PER_MESSAGE);
      this.options.api['game.input']({ inputs: batch, interpolationDelay: view.interpolationDelay }).then(
        (r) => {
          if (!r.accepted) this.inputsRejected += batch.length;
        },
        () => {
          this.inputsRejected += batch.length;
        },
      );
    }
    this.drawn = view.sample(now);
    return this.drawn;
  }

  /**
   * What the HUD shows: the frame last drawn, or where everyone is at `now` before the first; null before the first
   * roster or snapshot. Not sampled anew once frames are drawn: the view's interpolation delay is measured at draws.
   */
  sample(now: number): F | null {
    const view = this.view;
    return view === null ? null : (this.drawn ?? view.sample(now));
  }

  /** How far in the past the view draws the other players now, seconds; undefined before the first game. */
  get interpolationDelay(): number | undefined {
    return this.view?.interpolationDelay;
  }

  /** Snapshots received since the previous call (the net graph's snapshot rate). */
  takeSnapshotCount(): number {
    const n = this.snapshotCount;
    this.snapshotCount = 0;
    return n;
  }

  private adopt(game: number): void {
    if (game === this.gameId) return;
    this.gameId = game;
    this.view = this.options.game.createView({
      playerId: this.options.you,
      interpolationDelay: this.options.interpolationDelay,
    });
    this.looks = new Map();
    this.drawn = null;
    this.resultsValue = null;
    this.endedValue = null;
    this.options.onChange?.();
  }

  private catchUp(current: GameCurrent): void {
    if (current.roster !== null && (this.gameId === null || this.gameId === current.roster.game)) {
      this.roster(current.roster);
    }
    if (current.results !== null && current.results.game === this.gameId && this.resultsValue === null) {
      this.results(current.results);
    }
  }

  private roster(roster: GameRosterPayload): void {
    this.adopt(roster.game);
    this.looks = new Map(roster.players.map((p) => [p.id, { name: p.name, colour: p.colour }]));
    this.options.onChange?.();
  }

  private snapshot(event: GameSnapshotEvent, now: number): void {
    this.adopt(event.game);
    this.snapshotCount += 1;
    this.view?.applySnapshot(event.snapshot, now);
  }

  private results(results: GameResultsPayload): void {
    if (results.game !== this.gameId) return;
    this.resultsValue = results;
    this.options.onChange?.();
  }

  private ended(ended: GameEnded): void {
    if (ended.game !== null && ended.game !== this.gameId) return;
    this.endedValue = ended;
    this.options.onChange?.();
  }
}
