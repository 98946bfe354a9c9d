import type { PlayerId, PlayerInput } from '../../shared/games/tag/types';
import { reportCallbackError } from '../base/listeners';
import type { GameFeed, GameLink } from './gameLink';
import { GameLinkEvents } from './gameLinkEvents';

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
export class LocalGameClient extends GameLinkEvents implements GameLink {
  readonly playerId: PlayerId;
  private readonly host: LocalGameHost;
  private detach: (() => void) | undefined;

  constructor(host: LocalGameHost, onCallbackError: (error: unknown) => void = reportCallbackError) {
    super(onCallbackError);
    this.host = host;
    this.playerId = host.hostPlayerId;
    this.detach = host.attachLocal({
      snapshot: (s) => this.snapshots.emit(s),
      roster: (r) => this.publishRoster(r),
      results: (r) => this.results.emit(r),
      stopped: (reason) => this.closedListeners.emit(reason),
    });
  }

  sendInputs(inputs: readonly PlayerInput[], interpolationDelay: number): void {
    if (this.detach !== undefined && inputs.length > 0) this.host.submitLocalInputs(inputs, interpolationDelay);
  }

  close(): void {
    this.detach?.();
    this.detach = undefined;
  }
}
