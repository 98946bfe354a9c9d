import {
  fromResultsPayload,
  GameMessage,
  INPUT_REDUNDANCY,
  MAX_INPUTS_PER_MESSAGE,
  type InputPayload,
} from '../../shared/game/gameProtocol';
import { parseResultsPayload, parseRosterPayload, parseSnapshotPayload } from '../../shared/game/gameSchemas';
import type { GameDefinition, GameInput, PlayerId } from '../../shared/games/gameDefinition';
import { Channel } from '../../shared/net/channel';
import { reportCallbackError } from '../base/listeners';
import { GameLinkEvents } from './gameLinkEvents';
import type { GameLink } from './gameLink';
import type { GuestTransport } from '../net/index';
import { RosterAssembler } from './host/rosterAssembler';

/** The parts of a game definition a guest's link uses: how inputs go out and snapshots are checked. */
export type ClientGame<I extends GameInput, Snap extends object, W> = Pick<
  GameDefinition<never, I, Snap, unknown, unknown, unknown, W>,
  'input' | 'snapshot'
>;

/** Options of {@link GameClient}. */
export interface GameClientOptions<I extends GameInput = GameInput, Snap extends object = object, W = unknown> {
  /** The room's game (from the registry, by the lobby state's gameId). */
  readonly game: ClientGame<I, Snap, W>;
  /** The lobby's transport client (LobbyGuest.transport). */
  readonly transport: GuestTransport;
  /** Our player id: String(LobbyGuest.you). */
  readonly playerId: PlayerId;
  /** Inputs repeated in every message, 1–16. Default INPUT_REDUNDANCY (5). */
  readonly redundancy?: number;
  readonly onCallbackError?: (error: unknown) => void;
}

/** Counters of a game client. */
export interface GameClientStats {
  inputsSent: number;
  messagesSent: number;
  /** Inputs handed over before the game id was known, or while disconnected. */
  inputsUnsent: number;
  snapshotsReceived: number;
  /** Malformed host messages, or ones of another game session. */
  messagesDropped: number;
}

/**
 * A guest's side of the game on the lobby's transport client: sends inputs with redundancy, validates what the host
 * sends and hands it to the renderer bridge. The game session id is taken from the newest roster (or, before one,
 * from the first snapshot); messages of other sessions are dropped.
 */
export class GameClient<I extends GameInput = GameInput, Snap extends object = object, W = unknown>
  extends GameLinkEvents<Snap>
  implements GameLink<I, Snap>
{
  readonly playerId: PlayerId;
  private readonly redundancy: number;
  private readonly assembler = new RosterAssembler();
  private readonly unsubscribe: (() => void)[];
  private readonly counters: GameClientStats = {
    inputsSent: 0,
    messagesSent: 0,
    inputsUnsent: 0,
    snapshotsReceived: 0,
    messagesDropped: 0,
  };
  private game: number | undefined;
  private recent: W[] = [];

  constructor(private readonly options: GameClientOptions<I, Snap, W>) {
    super(options.onCallbackError ?? reportCallbackError);
    this.playerId = options.playerId;
    this.redundancy = options.redundancy ?? INPUT_REDUNDANCY;
    if (!Number.isInteger(this.redundancy) || this.redundancy < 1 || this.redundancy > MAX_INPUTS_PER_MESSAGE) {
      throw new RangeError(`redundancy must be 1–${MAX_INPUTS_PER_MESSAGE}, got ${this.redundancy}`);
    }
    const t = options.transport;
    this.unsubscribe = [
      t.onMessage(GameMessage.SNAPSHOT, (payload) => this.receiveSnapshot(payload)),
      t.onMessage(GameMessage.ROSTER, (payload) => this.receiveRoster(payload)),
      t.onMessage(GameMessage.RESULTS, (payload) => this.receiveResults(payload)),
      t.onDisconnect((reason) => this.closedListeners.emit(`disconnected: ${reason}`)),
    ];
  }

  /** The current game session id, once known. */
  get gameId(): number | undefined {
    return this.game;
  }

  /** Sends one `game.input` carrying these inputs and the most recent earlier ones (up to the redundancy). */
  sendInputs(inputs: readonly I[], interpolationDelay: number): void {
    if (inputs.length === 0) return;
    if (this.game === undefined) {
      this.counters.inputsUnsent += inputs.length;
      return;
    }
    const keep = Math.min(MAX_INPUTS_PER_MESSAGE, Math.max(this.redundancy, inputs.length));
    const codec = this.options.game.input;
    this.recent = [...this.recent, ...inputs.map((input) => codec.toWire(input))].slice(-keep);
    const payload: InputPayload<W> = { g: this.game, d: Math.round(interpolationDelay * 1000) / 1000, i: this.recent };
    if (this.options.transport.send(GameMessage.INPUT, payload, Channel.UNRELIABLE)) {
      this.counters.messagesSent += 1;
      this.counters.inputsSent += inputs.length;
    } else {
      this.counters.inputsUnsent += inputs.length;
    }
    // Older inputs beyond the redundancy window are never resent.
    this.recent = this.recent.slice(-this.redundancy);
  }

  close(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /** Counters for diagnostics. */
  stats(): GameClientStats {
    return { ...this.counters };
  }

  private receiveSnapshot(payload: unknown): void {
    const parsed = parseSnapshotPayload(payload, this.options.game.snapshot);
    this.game ??= parsed?.game;
    if (parsed === undefined || parsed.game !== this.game) {
      this.counters.messagesDropped += 1;
      return;
    }
    this.counters.snapshotsReceived += 1;
    this.snapshots.emit(parsed.snapshot);
  }

  private receiveRoster(payload: unknown): void {
    const part = parseRosterPayload(payload);
    const roster = part === undefined ? undefined : this.assembler.add(part);
    if (part === undefined) this.counters.messagesDropped += 1;
    if (roster === undefined) return;
    if (roster.game !== this.game) {
      this.game = roster.game;
      this.recent = [];
    }
    this.publishRoster(roster);
  }

  private receiveResults(payload: unknown): void {
    const parsed = parseResultsPayload(payload);
    if (parsed === undefined || parsed.g !== this.game) {
      this.counters.messagesDropped += 1;
      return;
    }
    this.results.emit(fromResultsPayload(parsed));
  }
}
