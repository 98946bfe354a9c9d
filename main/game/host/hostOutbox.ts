import {
  fromResultsPayload,
  GameMessage,
  rosterParts,
  type GameResults,
  type GameRoster,
  type ResultsPayload,
  type RoundEndReason,
} from '../../../shared/game/gameProtocol';
import type { GameDefinition, PlayerId } from '../../../shared/games/gameDefinition';
import { Channel } from '../../../shared/net/channel';
import { PayloadTooLargeError, type HostTransport } from '../../net/index';
import type { GameFeed } from '../gameLink';

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A stat as the results schema requires it: a whole, non-negative number (0 for anything else). */
function wholeCount(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

/** The parts of a game definition the outbox reads. */
export type OutboxGame<S, Snap extends object> = Pick<
  GameDefinition<S, never, Snap>,
  'players' | 'standings' | 'snapshot'
>;

/** Everything the game host sends, to guests over the transport and to in-process players directly. */
export class HostOutbox<S = unknown, Snap extends object = object> {
  private readonly feeds = new Set<GameFeed<Snap>>();
  private sent = 0;
  private tooLarge = 0;

  constructor(
    private readonly game: OutboxGame<S, Snap>,
    private readonly transport: HostTransport,
    private readonly gameId: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Snapshots broadcast so far. */
  get snapshotsSent(): number {
    return this.sent;
  }

  /** Snapshots not sent because they exceeded one datagram. */
  get snapshotsTooLarge(): number {
    return this.tooLarge;
  }

  /** Adds an in-process player; it gets the roster of `current` at once when given. */
  attach(feed: GameFeed<Snap>, current: S | undefined): () => void {
    this.feeds.add(feed);
    if (current !== undefined) this.deliver((f) => f.roster(this.roster(current)), [feed]);
    return () => this.feeds.delete(feed);
  }

  /** The player list, reliably, in parts small enough for one datagram each. */
  sendRoster(state: S): void {
    const roster = this.roster(state);
    for (const part of rosterParts(this.gameId, roster.players)) {
      this.transport.broadcast(GameMessage.ROSTER, part, { channel: Channel.RELIABLE_ORDERED });
    }
    this.deliver((f) => f.roster(roster));
  }

  /**
   * The world, unreliably and sequenced (natively, a snapshot older than one already delivered is
   * dropped); a snapshot too large for the connection is counted and skipped, never thrown.
   */
  sendSnapshot(state: S, acks: ReadonlyMap<PlayerId, number>): void {
    const snapshot = this.game.snapshot.of(state, acks);
    try {
      this.transport.broadcast(
        GameMessage.SNAPSHOT,
        { ...snapshot, g: this.gameId },
        { channel: Channel.UNRELIABLE_SEQUENCED },
      );
      this.sent += 1;
    } catch (error) {
      if (!(error instanceof PayloadTooLargeError)) throw error;
      this.tooLarge += 1;
    }
    this.deliver((f) => f.snapshot(snapshot));
  }

  /**
   * The final standings, reliably (an abandoned round has no winners), with the seconds the room shows them when
   * known (`holdSeconds`, so every player counts the same hold); returns them as delivered.
   */
  sendResults(state: S, reason: RoundEndReason, holdSeconds?: number): GameResults {
    const standings = this.game.standings(state);
    const payload: ResultsPayload = {
      g: this.gameId,
      why: reason,
      w: reason === 'finished' ? [...standings.winners] : [],
      s: standings.scores.map((p) => [p.id, round1(p.score), wholeCount(p.stat)]),
      ...(holdSeconds !== undefined ? { hold: holdSeconds } : {}),
    };
    this.transport.broadcast(GameMessage.RESULTS, payload, { channel: Channel.RELIABLE_ORDERED });
    const results = fromResultsPayload(payload);
    this.deliver((f) => f.results(results));
    return results;
  }

  /** Tells in-process players the game stopped without results. */
  stopped(reason: string): void {
    this.deliver((f) => f.stopped(reason));
  }

  private roster(state: S): GameRoster {
    const players = this.game.players(state).map(({ id, name, colour }) => ({ id, name, colour }));
    return { game: this.gameId, players };
  }

  private deliver(send: (feed: GameFeed<Snap>) => void, feeds: Iterable<GameFeed<Snap>> = [...this.feeds]): void {
    for (const feed of feeds) {
      try {
        send(feed);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
