import type { GameResults, GameRoster } from '../../shared/game/gameProtocol';
import type { GameSnapshot } from '../../shared/game/snapshot';
import type { PlayerId, PlayerInput } from '../../shared/game/types';
import { Listeners, reportCallbackError } from '../net/listeners';
import type { GameFeed, GameLink } from './gameLink';

/** The part of GameHost an in-process player needs. */
export interface LocalGameHost {
  readonly hostPlayerId: PlayerId;
  attachLocal(feed: GameFeed): () => void;
  submitLocalInputs(inputs: readonly PlayerInput[], interpolationDelay: number): void;
}

/**
 * The host's own player: the same {@link GameLink} as a guest's GameClient, but inputs go straight into the host's
 * queue and snapshots, roster and results come straight from it, without the network.
 */
export class LocalGameClient implements GameLink {
  readonly playerId: PlayerId;
  private readonly host: LocalGameHost;
  private readonly snapshots: Listeners<[GameSnapshot]>;
  private readonly rosters: Listeners<[GameRoster]>;
  private readonly results: Listeners<[GameResults]>;
  private readonly closedListeners: Listeners<[string]>;
  private latestRoster: GameRoster | undefined;
  private detach: (() => void) | undefined;

  constructor(host: LocalGameHost, onCallbackError: (error: unknown) => void = reportCallbackError) {
    this.host = host;
    this.playerId = host.hostPlayerId;
    this.snapshots = new Listeners(onCallbackError);
    this.rosters = new Listeners(onCallbackError);
    this.results = new Listeners(onCallbackError);
    this.closedListeners = new Listeners(onCallbackError);
    this.detach = host.attachLocal({
      snapshot: (s) => this.snapshots.emit(s),
      roster: (r) => {
        this.latestRoster = r;
        this.rosters.emit(r);
      },
      results: (r) => this.results.emit(r),
      stopped: (reason) => this.closedListeners.emit(reason),
    });
  }

  sendInputs(inputs: readonly PlayerInput[], interpolationDelay: number): void {
    if (this.detach !== undefined && inputs.length > 0) this.host.submitLocalInputs(inputs, interpolationDelay);
  }

  onSnapshot(callback: (snapshot: GameSnapshot) => void): () => void {
    return this.snapshots.add(callback);
  }

  /** Also called at once with the current roster, if there is one, so subscribing late misses nothing. */
  onRoster(callback: (roster: GameRoster) => void): () => void {
    const off = this.rosters.add(callback);
    if (this.latestRoster !== undefined) callback(this.latestRoster);
    return off;
  }

  onResults(callback: (results: GameResults) => void): () => void {
    return this.results.add(callback);
  }

  onClosed(callback: (reason: string) => void): () => void {
    return this.closedListeners.add(callback);
  }

  close(): void {
    this.detach?.();
    this.detach = undefined;
  }
}
