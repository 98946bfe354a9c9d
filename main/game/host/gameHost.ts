import { randomInt } from 'node:crypto';
import { createGame } from '../../../shared/games/tag/createGame';
import { GAME_TICK_DT, GameMessage, MAX_GAME_ID, SNAPSHOT_EVERY_TICKS } from '../../../shared/game/gameProtocol';
import type { GameResults } from '../../../shared/game/gameProtocol';
import { removePlayer } from '../../../shared/games/tag/players';
import { RULES } from '../../../shared/games/tag/rules';
import { stepWithEvents } from '../../../shared/games/tag/step';
import type { GameState, PlayerId, PlayerInput } from '../../../shared/games/tag/types';
import { HOST_PLAYER_ID } from '../../../shared/lobby/lobbyState';
import { reportCallbackError } from '../../base/listeners';
import type { GameFeed } from '../gameLink';
import { MAX_ROUND_DURATION, type GameHostOptions, type GameHostStats } from './gameHostOptions';
import { HostOutbox } from './hostOutbox';
import { HostInputs } from './hostInputs';
import { LagHistories } from './lagHistories';
import { FixedTickLoop, systemTimer } from './tickLoop';

export type { GameHostOptions, GameHostStats, GamePlayer } from './gameHostOptions';

/**
 * The authoritative tag game in the main process: a fixed 60 Hz simulation over the lobby's transport. Guests'
 * inputs are validated and queued per player (HostInputs); tags are resolved with lag compensation (LagHistories);
 * snapshots go out unreliably, roster and results reliably (HostOutbox). Disconnected players are removed; with
 * fewer than two left, the round is abandoned.
 */
export class GameHost {
  /** Session id on every message of this game. */
  readonly gameId: number;
  /** The host's own player id. */
  readonly hostPlayerId: PlayerId = String(HOST_PLAYER_ID);
  private stateValue: GameState;
  private readonly inputs: HostInputs;
  private readonly histories: LagHistories;
  private readonly outbox: HostOutbox;
  private readonly loop: FixedTickLoop;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly onError: (error: unknown) => void;
  private ticks = 0;
  private phase: 'ready' | 'running' | 'finished' | 'stopped' = 'ready';

  constructor(private readonly options: GameHostOptions) {
    const duration = options.roundDuration ?? RULES.roundDuration;
    if (!(duration > 0 && duration <= MAX_ROUND_DURATION)) {
      throw new RangeError(`roundDuration must be in (0, ${MAX_ROUND_DURATION}] seconds, got ${duration}`);
    }
    const every = options.snapshotEvery ?? SNAPSHOT_EVERY_TICKS;
    if (!Number.isInteger(every) || every < 1) throw new RangeError(`snapshotEvery must be >= 1, got ${every}`);
    this.gameId = options.gameId ?? randomInt(1, MAX_GAME_ID + 1);
    if (!Number.isInteger(this.gameId) || this.gameId < 1 || this.gameId > MAX_GAME_ID) {
      throw new RangeError(`gameId must be 1–${MAX_GAME_ID}, got ${this.gameId}`);
    }
    const created = createGame({
      players: options.players.map((p) => ({ id: String(p.id), name: p.name, colour: p.colour })),
      seed: options.seed ?? randomInt(0, 2 ** 31),
      roundDuration: duration,
      arena: options.arena,
    });
    this.stateValue = options.prepare ? options.prepare(created) : created;
    if (this.stateValue.phase !== 'playing') throw new RangeError('a game needs at least two players');
    const clock = options.clock ?? (() => performance.now() / 1000);
    this.onError = options.onCallbackError ?? reportCallbackError;
    this.loop = new FixedTickLoop({
      clock,
      timer: options.timer ?? systemTimer,
      dt: GAME_TICK_DT,
      onTick: () => this.tick(),
    });
    this.inputs = new HostInputs({
      gameId: this.gameId,
      players: this.stateValue.players.map((p) => p.id),
      hostPlayerId: this.hostPlayerId,
      hostTime: () => this.stateValue.elapsed + this.loop.sinceLastTick(),
      rttOf: (id) => options.transport.getRtt(Number(id)),
    });
    this.histories = new LagHistories(() => this.stateValue.elapsed);
    this.histories.record(this.stateValue.players);
    this.outbox = new HostOutbox(options.transport, this.gameId, every, this.onError);
  }

  /** The current authoritative state. */
  get state(): GameState {
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
    this.outbox.sendRoster(this.stateValue);
    this.outbox.sendSnapshot(this.stateValue, this.inputs.acks());
    this.loop.start();
  }

  /** Advances exactly one tick (the loop calls this; tests may call it directly). */
  tick(): void {
    if (this.phase !== 'running') return;
    const inputs = new Map<PlayerId, PlayerInput>();
    for (const p of this.stateValue.players) {
      const next = this.inputs.next(p.id, this.stateValue.elapsed);
      inputs.set(p.id, next.input);
      this.histories.setRewind(p.id, next.rewind);
    }
    const lagCompensation = this.options.lagCompensation ?? true;
    const result = stepWithEvents(this.stateValue, inputs, GAME_TICK_DT, {
      targetPositionAt: lagCompensation ? this.histories.lookup : undefined,
    });
    this.stateValue = result.state;
    this.ticks += 1;
    this.histories.record(this.stateValue.players);
    const ended = result.events.some((e) => e.type === 'roundEnded');
    if (ended || this.ticks % this.outbox.snapshotEvery === 0) {
      this.outbox.sendSnapshot(this.stateValue, this.inputs.acks());
    }
    if (result.events.length > 0) this.guard(() => this.options.onEvents?.(result.events, this.stateValue));
    if (ended) this.finish('finished');
  }

  /** Queues the host's own inputs (no network): the local counterpart of a guest's `game.input`. */
  submitLocalInputs(inputs: readonly PlayerInput[], interpolationDelay: number): void {
    if (this.phase === 'running') this.inputs.acceptLocal(inputs, interpolationDelay);
  }

  /** Feeds snapshots, roster and results to an in-process player; the current roster comes at once if started. */
  attachLocal(feed: GameFeed): () => void {
    return this.outbox.attach(feed, this.phase === 'ready' ? undefined : this.stateValue);
  }

  /** Stops without results (e.g. the room is closing); in-process players are told. */
  stop(reason = 'game stopped'): void {
    if (this.phase === 'finished' || this.phase === 'stopped') return;
    this.phase = 'stopped';
    this.detach();
    this.outbox.stopped(reason);
  }

  /** Counters for diagnostics and benchmarks. */
  stats(): GameHostStats {
    return {
      ticks: this.ticks,
      droppedTicks: this.loop.dropped,
      snapshotsSent: this.outbox.snapshotsSent,
      snapshotsTooLarge: this.outbox.snapshotsTooLarge,
      inputs: this.inputs.counters(),
    };
  }

  private removePlayer(id: PlayerId): void {
    if (this.phase !== 'running' || !this.stateValue.players.some((p) => p.id === id)) return;
    this.stateValue = removePlayer(this.stateValue, id);
    this.inputs.remove(id);
    this.histories.remove(id);
    if (this.stateValue.phase !== 'playing') return this.finish('abandoned');
    this.outbox.sendRoster(this.stateValue);
  }

  private finish(reason: GameResults['reason']): void {
    if (this.phase !== 'running') return;
    this.phase = 'finished';
    this.detach();
    const results = this.outbox.sendResults(this.stateValue, reason);
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
