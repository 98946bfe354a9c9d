import { Listeners, reportCallbackError } from '../base/listeners';
import type { ConnectionStats, GuestTransport } from '../net/index';
import type { Channel } from '../../shared/net/channel';
import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';

/**
 * A guest's link to its room that outlives a connection: the game (and anything else) subscribes once, and when
 * the guest comes back to its seat on a new transport Client, {@link swap} moves every subscription over. Its
 * disconnect is the stay's end, said once by the owner ({@link end}), not a connection's drop.
 */
export class ResumableLink<C extends GuestTransport = GuestTransport> implements GuestTransport {
  private readonly subscriptions = new Set<{
    readonly type: string;
    readonly callback: (payload: Record<string, unknown>) => void;
    off: () => void;
  }>();
  private readonly ends = new Listeners<[string]>(reportCallbackError);
  private ended = false;
  private connected = true;

  constructor(private client: C) {}

  /** The connection the link runs on now. */
  get current(): C {
    return this.client;
  }

  /** False between losing a connection ({@link lost}) and the next {@link swap}. */
  get isConnected(): boolean {
    return this.connected && !this.ended;
  }

  /** Subscribes to a message type, on this connection and every later one. */
  onMessage(type: string, callback: (payload: Record<string, unknown>) => void): () => void {
    const entry = { type, callback, off: this.client.onMessage(type, callback) };
    this.subscriptions.add(entry);
    return () => {
      entry.off();
      this.subscriptions.delete(entry);
    };
  }

  /** Called once when the stay ends (not when a connection drops and the seat waits). */
  onDisconnect(callback: (reason: string) => void): () => void {
    return this.ends.add(callback);
  }

  /** Sends on the current connection; false while there is none (the guest is coming back) or it is backed up. */
  send(type: string, payload: object, channel?: Channel): boolean {
    return this.isConnected && this.client.send(type, payload, channel);
  }

  /** The current connection's statistics. */
  stats(): ConnectionStats | undefined {
    return this.client.stats();
  }

  /** Refuses, visibly (an IpcError the player reads), what cannot be sent while the guest comes back to its seat. */
  assertConnected(what: string): void {
    if (this.ended || this.connected) return;
    throw new IpcError(IpcErrorCode.UNAVAILABLE, `Reconnecting to the host… ${what}: try again in a moment.`);
  }

  /** The connection dropped; sends fail until {@link swap} brings a new one. */
  lost(): void {
    this.connected = false;
  }

  /** Moves every subscription to a new connection (the guest is back in its seat); returns the old one. */
  swap(next: C): C {
    const previous = this.client;
    for (const entry of this.subscriptions) {
      entry.off();
      entry.off = next.onMessage(entry.type, entry.callback);
    }
    this.client = next;
    this.connected = true;
    return previous;
  }

  /** The stay is over: tells the subscribers once, with the reason. */
  end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.ends.emit(reason);
    this.ends.clear();
  }
}
