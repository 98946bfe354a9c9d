import type { GameInput, PlayerId } from '../../shared/games/gameDefinition';
import { reportCallbackError } from '../base/listeners';
import type { GameFeed, GameLink } from './gameLink';
import { GameLinkEvents } from './gameLinkEvents';

/** The part of GameHost an in-process player needs. */
export interface LocalGameHost<I extends GameInput = GameInput, Snap extends object = object> {
  readonly hostPlayerId: PlayerId;
  attachLocal(feed: GameFeed<Snap>): () => void;
  submitLocalInputs(inputs: readonly I[], interpolationDelay: number): void;
}

/**
 * The host's own player: the same {@link GameLink} as a guest's GameClient, but inputs go straight into the host's
 * queue and snapshots, roster and results come straight from it, without the network.
 */
export class LocalGameClient<I extends GameInput = GameInput, Snap extends object = object>
  extends GameLinkEvents<Snap>
  implements GameLink<I, Snap>
{
  readonly playerId: PlayerId;
  private readonly host: LocalGameHost<I, Snap>;
  private detach: (() => void) | undefined;

  constructor(host: LocalGameHost<I, Snap>, onCallbackError: (error: unknown) => void = reportCallbackError) {
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

  sendInputs(inputs: readonly I[], interpolationDelay: number): void {
    if (this.detach !== undefined && inputs.length > 0) this.host.submitLocalInputs(inputs, interpolationDelay);
  }

  close(): void {
    this.detach?.();
    this.detach = undefined;
  }
}
