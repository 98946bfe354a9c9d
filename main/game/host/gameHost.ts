import { randomInt } from 'node:crypto';
import {
  GAME_TICK_DT,
  GameMessage,
  MAX_GAME_ID,
  MAX_RESULTS_HOLD_SECONDS,
  MAX_ROUND_DURATION,
  type GameResults,
} from '../../../shared/game/gameProtocol';
import type { GameDefinition, GameInput, PlayerId } from '../../../shared/games/gameDefinition';
import { HOST_PLAYER_ID } from '../../../shared/lobby/lobbyState';
import { reportCallbackError } from '../../base/listeners';
import type { GameFeed } from '../gameLink';
import type { GameHostOptions, GameHostStats } from './gameHostOptions';
import { HostOutbox } from './hostOutbox';
import { HostInputs } from './hostInputs';
import { LagHistories } from './lagHistories';
import { systemScheduler } from '../../base/scheduler';
import { FixedTickLoop } from './tickLoop';
import {
  initialSnapshotRate,
  nextSnapshotRate,
  snapshotsPerSecond,
  type LinkHealth,
  type SnapshotRate,
} from './snapshotRate';

/** Ticks between evaluations of the room's snapshot rate (once a second). */
const RATE_EVALUATION_TICKS = 60;

export type { GameHostOptions, GameHostStats, GamePlayer } from './gameHostOptions';

/**
 * The authoritative game in the main process, for any game definition: a fixed 60 Hz simulation over the lobby's
 * transport. Guests' inputs are validated and queued per player (HostInputs); hits are resolved with lag compensation
 * when the game records positions (LagHistories); snapshots go out unreliably, roster and results reliably
 * (HostOutbox). Disconnected players are removed; when too few are left to play, the round is abandoned.
 */
export class GameHost<
  S = unknown,
  I extends GameInput = GameInput,
  Snap extends object = object,
  E = unknown,
  W = unknown,
> {
  /** Session id on every message of this game. */
  readonly gameId: number;
  /** The host's own player id. */
  readonly hostPlayerId: PlayerId = String(HOST_PLAYER_ID);
  /** The game being run. */
  readonly game: GameDefinition<S, I, Snap, E, unknown, unknown, W>;
  private stateValue: S;
  /** Host game time, seconds: the clock of input arrival and position histories. */
  private elapsed = 0;
  private readonly inputs: HostInputs<I, W>;
  private readonly histories: LagHistories | undefined;
  private readonly outbox: HostOutbox<S, Snap>;
  private readonly loop: FixedTickLoop;
  private readonly tickInputs = new Map<PlayerId, I>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly onError: (error: unknown) => void;
  private ticks = 0;
  /** Ticks per snapshot: fixed by the options, else chosen from the guests' links (snapshotRate.ts). */
  private rate: SnapshotRate;
  private phase: 'ready' | 'running' | 'finished' | 'stopped' = 'ready';

  constructor(private readonly options: GameHostOptions<S, I, Snap, E, W>) {
    const game = options.game;
    this.game = game;
    const duration = options.roundDuration ?? game.roundDuration;
    if (!(duration > 0 && duration <= MAX_ROUND_DURATION)) {
      throw new RangeError(`roundDuration must be in (0, ${MAX_ROUND_DURATION}] seconds, got ${duration}`);
    }
    const hold = options.resultsHoldSeconds;
    if (hold !== undefined && !(hold >= 0 && hold <= MAX_RESULTS_HOLD_SECONDS)) {
      throw new RangeError(`resultsHoldSeconds must be in [0, ${MAX_RESULTS_HOLD_SECONDS}] seconds, got ${hold}`);
    }
    const every = options.snapshotEvery;
    if (every !== undefined && (!Number.isInteger(every) || every < 1)) {
      throw new RangeError(`snapshotEvery must be a whole number >= 1, got ${every}`);
    }
    this.gameId = options.gameId ?? randomInt(1, MAX_GAME_ID + 1);
    if (!Number.isInteger(this.gameId) || this.gameId < 1 || this.gameId > MAX_GAME_ID) {
      throw new RangeError(`gameId must be 1–${MAX_GAME_ID}, got ${this.gameId}`);
    }
    if (options.players.length < game.minPlayers || options.players.length > game.maxPlayers) {
      throw new RangeError(
        `a game of ${game.name} takes ${game.minPlayers}–${game.maxPlayers} players, got ${options.players.length}`,
      );
    }
    const created = game.create({
      players: options.players.map((p) => ({ id: String(p.id), name: p.name, colour: p.colour })),
      seed: options.seed ?? randomInt(0, 2 ** 31),
      roundDuration: duration,
    });
    this.stateValue = options.prepare ? options.prepare(created) : created;
    if (game.phase(this.stateValue) !== 'playing') throw new RangeError(`the ${game.name} round did not start`);
    this.onError = options.onCallbackError ?? reportCallbackError;
    this.loop = new FixedTickLoop({
      scheduler: options.scheduler ?? systemScheduler,
      dt: GAME_TICK_DT,
      onTick: () => this.tick(),
    });
    this.inputs = new HostInputs({
      codec: game.input,
      gameId: this.gameId,
      players: game.players(this.stateValue).map((p) => p.id),
      hostPlayerId: this.hostPlayerId,
      hostTime: () => this.elapsed + this.loop.sinceLastTick(),
      rttOf: (id) => options.transport.getRtt(Number(id)),
    });
    if (game.lagPositions !== undefined) {
      this.histories = new LagHistories(() => this.elapsed);
      this.histories.record(game.lagPositions(this.stateValue));
    }
    this.outbox = new HostOutbox(game, options.transport, this.gameId, this.onError);
    this.rate = every !== undefined ? { every, better: 0 } : initialSnapshotRate(this.links());
  }

  /** The current authoritative state. */
  get state(): S {
    return this.stateValue;
  }

  /** Whether the tick loop runs. */
  get running(): boolean {
    return this.phase === 'running';
  }

  /** Sends the roster and first snapshot, then starts the fixed tick loop. */
  start(): void {
    if (this.phase !== 'ready') throw new Error(`cannot start a game host that is ${this.phase}`);
    this.phase = 'running';
    const t = this.options.transport;
    this.unsubscribe.push(
      t.onMessage(GameMessage.INPUT, (peer, payload) => this.inputs.receive(peer.id, payload)),
      t.onDisconnect((peer) => this.removePlayer(String(peer.id))),
    );
    const seatChanges = t.onSeatChange?.((peer, change) =>
      change === 'held' ? this.holdPlayer(String(peer.id)) : this.resumePlayer(String(peer.id)),
    );
    if (seatChanges) this.unsubscribe.push(seatChanges);
    this.outbox.sendRoster(this.stateValue);
    this.outbox.sendSnapshot(this.stateValue, this.inputs.acks());
    this.loop.start();
  }

  /** Advances exactly one tick (the loop calls this; tests may call it directly). */
  tick(): void {
    if (this.phase !== 'running') return;
    const { game } = this;
    const inputs = this.tickInputs;
    inputs.clear();
    for (const p of game.players(this.stateValue)) {
      const next = this.inputs.next(p.id, this.elapsed);
      inputs.set(p.id, next.input);
      this.histories?.setRewind(p.id, next.rewind);
    }
    const lagCompensation = this.options.lagCompensation ?? true;
    const result = game.step(this.stateValue, inputs, GAME_TICK_DT, {
      rewound: lagCompensation ? this.histories?.lookup : undefined,
    });
    this.stateValue = result.state;
    this.ticks += 1;
    this.elapsed += GAME_TICK_DT;
    if (this.histories !== undefined && game.lagPositions !== undefined) {
      this.histories.record(game.lagPositions(this.stateValue));
    }
    const ended = game.phase(this.stateValue) === 'ended';
    if (this.options.snapshotEvery === undefined && this.ticks % RATE_EVALUATION_TICKS === 0) {
      this.rate = nextSnapshotRate(this.rate, this.links());
    }
    if (ended || this.ticks % this.rate.every === 0) {
      this.outbox.sendSnapshot(this.stateValue, this.inputs.acks());
    }
    if (result.events.length > 0) this.guard(() => this.options.onEvents?.(result.events, this.stateValue));
    if (ended) this.finish('finished');
  }

  /** Queues the host's own inputs (no network): the local counterpart of a guest's `game.input`. */
  submitLocalInputs(inputs: readonly I[], interpolationDelay: number): void {
    if (this.phase === 'running') this.inputs.acceptLocal(inputs, interpolationDelay);
  }

  /** Feeds snapshots, roster and results to an in-process player; the current roster comes at once if started. */
  attachLocal(feed: GameFeed<Snap>): () => void {
    return this.outbox.attach(feed, this.phase === 'ready' ? undefined : this.stateValue);
  }

  /**
   * The host's "End round": the running round ends now exactly as if its time had run out (the game's `endRound`),
   * with a last snapshot and the results so far to everyone under the usual hold. False when no round runs.
   */
  endRound(): boolean {
    if (this.phase !== 'running') return false;
    this.stateValue = this.game.endRound(this.stateValue);
    this.outbox.sendSnapshot(this.stateValue, this.inputs.acks());
    this.finish('finished');
    return true;
  }

  /** Stops without results (e.g. the room is closing); in-process players are told. */
  stop(reason = 'game stopped'): void {
    if (this.phase === 'finished' || this.phase === 'stopped') return;
    this.phase = 'stopped';
    this.detach();
    this.outbox.stopped(reason);
  }

  /**
   * A player's link went silent and the lobby holds its seat: it stays in the round with its score, standing still
   * (neutral input, not its last one repeated) until {@link resumePlayer}, or until the seat is let go (the
   * transport's disconnect). False when it is not playing.
   */
  holdPlayer(id: PlayerId): boolean {
    if (!this.playing(id)) return false;
    this.inputs.restart(id);
    return true;
  }

  /**
   * A held player is back: its next inputs count whatever their sequence, so the snapshots' acks skip the inputs
   * it sent into the gap and its prediction starts again from the host's state; everyone gets the roster again (the
   * returning link may have missed one). False when it is not playing.
   */
  resumePlayer(id: PlayerId): boolean {
    if (!this.playing(id)) return false;
    this.inputs.restart(id);
    this.outbox.sendRoster(this.stateValue);
    return true;
  }

  /** Snapshots a second the room gets now (60 on a LAN, lower on internet paths or under loss, or as fixed). */
  get snapshotsPerSecond(): number {
    return snapshotsPerSecond(this.rate.every);
  }

  /** Counters for diagnostics and benchmarks. */
  stats(): GameHostStats {
    return {
      ticks: this.ticks,
      snapshotsPerSecond: this.snapshotsPerSecond,
      droppedTicks: this.loop.dropped,
      snapshotsSent: this.outbox.snapshotsSent,
      snapshotsTooLarge: this.outbox.snapshotsTooLarge,
      inputs: this.inputs.counters(),
    };
  }

  private links(): LinkHealth[] {
    return this.options.transport.getPeers().map((peer) => peer.stats());
  }

  private playing(id: PlayerId): boolean {
    return this.phase === 'running' && this.game.players(this.stateValue).some((p) => p.id === id);
  }

  private removePlayer(id: PlayerId): void {
    const { game } = this;
    if (!this.playing(id)) return;
    this.stateValue = game.removePlayer(this.stateValue, id);
    this.inputs.remove(id);
    this.histories?.remove(id);
    if (game.phase(this.stateValue) !== 'playing') return this.finish('abandoned');
    this.outbox.sendRoster(this.stateValue);
  }

  private finish(reason: GameResults['reason']): void {
    if (this.phase !== 'running') return;
    this.phase = 'finished';
    this.detach();
    const results = this.outbox.sendResults(this.stateValue, reason, this.options.resultsHoldSeconds);
    this.guard(() => this.options.onRoundEnd(results));
  }

  private detach(): void {
    this.loop.stop();
    for (const off of this.unsubscribe.splice(0)) off();
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.onError(error);
    }
  }
}
