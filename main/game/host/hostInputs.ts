import { isInputSequence, MAX_INPUTS_PER_MESSAGE, type InputPayload } from '../../../shared/game/gameProtocol';
import { inputPayloadParser } from '../../../shared/game/gameSchemas';
import type { GameInput, GameInputCodec, PlayerId } from '../../../shared/games/gameDefinition';
import { InputQueue, type InputQueueCounters } from './inputQueue';
import { rewindSeconds } from './lagHistories';

/** Input counters of the whole game: the per-player queue counters summed, plus message-level drops. */
export interface HostInputCounters extends InputQueueCounters {
  /** `game.input` messages (and local batches) received. */
  messages: number;
  /** Messages that failed validation (dropped whole). */
  invalid: number;
  /** Messages for another game session. */
  wrongGame: number;
  /** Messages from a peer that is not (or no longer) a player. */
  unknownPlayer: number;
}

/** Options of {@link HostInputs}. */
export interface HostInputsOptions<I extends GameInput, W> {
  /** The game's inputs: wire format, validation and queue hooks. */
  readonly codec: GameInputCodec<I, W>;
  readonly gameId: number;
  readonly players: readonly PlayerId[];
  readonly hostPlayerId: PlayerId;
  /** Host game time now, in seconds (between ticks too). */
  readonly hostTime: () => number;
  /** A player's smoothed RTT in seconds, if known. */
  readonly rttOf: (id: PlayerId) => number | undefined;
}

/** What a player does this tick, and how far back its hits (if any) look. */
export interface PlayerTick<I extends GameInput = GameInput> {
  readonly input: I;
  readonly rewind: number | undefined;
}

/**
 * Everything the host does with inputs: validates each guest `game.input` (the single zod check, with the game's
 * wire schema), files inputs in bounded per-player queues, and hands out one input per player per tick with its
 * lag-compensation rewind.
 */
export class HostInputs<I extends GameInput = GameInput, W = unknown> {
  private readonly queues = new Map<PlayerId, InputQueue<I>>();
  private readonly delays = new Map<PlayerId, number>();
  private readonly retired: InputQueueCounters[] = [];
  private readonly drops = { messages: 0, invalid: 0, wrongGame: 0, unknownPlayer: 0 };
  private readonly parse: (value: unknown) => InputPayload<W> | undefined;
  private readonly neutral: PlayerTick<I>;

  constructor(private readonly options: HostInputsOptions<I, W>) {
    this.parse = inputPayloadParser(options.codec);
    this.neutral = { input: options.codec.neutral, rewind: undefined };
    for (const id of options.players) this.queues.set(id, new InputQueue(options.codec));
  }

  /** Handles a guest's `game.input` payload; anything malformed or misaddressed is dropped and counted. */
  receive(peerId: number, payload: unknown): void {
    this.drops.messages += 1;
    const parsed = this.parse(payload);
    if (parsed === undefined) {
      this.drops.invalid += 1;
      return;
    }
    if (parsed.g !== this.options.gameId) {
      this.drops.wrongGame += 1;
      return;
    }
    const id = String(peerId);
    if (id === this.options.hostPlayerId || !this.queues.has(id)) {
      this.drops.unknownPlayer += 1;
      return;
    }
    const { codec } = this.options;
    const inputs: I[] = [];
    for (const wire of parsed.i) {
      const input = codec.fromWire(wire);
      // The game's wire schema bounds sequences; checked again here because the queue relies on it.
      if (!isInputSequence(input.sequence)) {
        this.drops.invalid += 1;
        return;
      }
      inputs.push(input);
    }
    this.file(id, inputs, parsed.d);
  }

  /** The host's own inputs, typed already; malformed sequences drop the batch like a bad message would. */
  acceptLocal(inputs: readonly I[], interpolationDelay: number): void {
    this.drops.messages += 1;
    const valid =
      inputs.length <= MAX_INPUTS_PER_MESSAGE &&
      Number.isFinite(interpolationDelay) &&
      inputs.every((i) => isInputSequence(i.sequence));
    if (!valid) {
      this.drops.invalid += 1;
      return;
    }
    this.file(this.options.hostPlayerId, inputs, interpolationDelay);
  }

  /** The input `id` applies this tick (host time `elapsed`), with its tag's rewind in seconds. */
  next(id: PlayerId, elapsed: number): PlayerTick<I> {
    const queue = this.queues.get(id);
    if (queue === undefined) return this.neutral;
    const { input, arrivedAt } = queue.next();
    if (arrivedAt === undefined) return { input, rewind: undefined };
    const rewind = rewindSeconds({
      queueDelay: elapsed - arrivedAt,
      rtt: id === this.options.hostPlayerId ? undefined : this.options.rttOf(id),
      interpolationDelay: this.delays.get(id) ?? 0,
    });
    return { input, rewind };
  }

  /** Last processed input sequence per player, for snapshots. */
  acks(): Map<PlayerId, number> {
    const acks = new Map<PlayerId, number>();
    for (const [id, queue] of this.queues) {
      const ack = queue.lastProcessedSequence;
      if (ack !== undefined) acks.set(id, ack);
    }
    return acks;
  }

  /** Forgets a player who left (their counters stay in the totals). */
  remove(id: PlayerId): void {
    const queue = this.queues.get(id);
    if (queue !== undefined) this.retired.push(queue.counters);
    this.queues.delete(id);
    this.delays.delete(id);
  }

  /**
   * Starts a player's queue afresh (a held or resumed seat): it stands still until its next input, which is taken
   * whatever its sequence, so the acks skip the inputs lost meanwhile. Counters so far stay in the totals.
   */
  restart(id: PlayerId): void {
    if (!this.queues.has(id)) return;
    this.remove(id);
    this.queues.set(id, new InputQueue(this.options.codec));
  }

  /** Totals over all players, present and past. */
  counters(): HostInputCounters {
    const total: HostInputCounters = {
      ...this.drops,
      accepted: 0,
      duplicate: 0,
      stale: 0,
      overflow: 0,
      repeated: 0,
      skipped: 0,
    };
    const all = [...this.retired, ...[...this.queues.values()].map((q) => q.counters)];
    for (const c of all) {
      for (const key of ['accepted', 'duplicate', 'stale', 'overflow', 'repeated', 'skipped'] as const) {
        total[key] += c[key];
      }
    }
    return total;
  }

  private file(id: PlayerId, inputs: readonly I[], interpolationDelay: number): void {
    const queue = this.queues.get(id);
    if (queue === undefined) return;
    this.delays.set(id, interpolationDelay);
    const at = this.options.hostTime();
    for (const input of inputs) queue.offer(input, at);
  }
}
