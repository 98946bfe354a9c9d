import type { GameResults, GameRoster } from '../../shared/game/gameProtocol';
import { Listeners } from '../base/listeners';

/** The listening half every GameLink shares: snapshots, the roster (replayed to late subscribers), results, closing. */
export abstract class GameLinkEvents<Snap extends object = object> {
  protected readonly snapshots: Listeners<[Snap]>;
  protected readonly rosters: Listeners<[GameRoster]>;
  protected readonly results: Listeners<[GameResults]>;
  protected readonly closedListeners: Listeners<[string]>;
  private latestRoster: GameRoster | undefined;

  constructor(onCallbackError: (error: unknown) => void) {
    this.snapshots = new Listeners(onCallbackError);
    this.rosters = new Listeners(onCallbackError);
    this.results = new Listeners(onCallbackError);
    this.closedListeners = new Listeners(onCallbackError);
  }

  /** Remembers and announces a new roster. */
  protected publishRoster(roster: GameRoster): void {
    this.latestRoster = roster;
    this.rosters.emit(roster);
  }

  onSnapshot(callback: (snapshot: Snap) => void): () => void {
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
}
