import type { Channel } from '../../shared/net/channel';

/** A connected peer as the game needs it. */
export interface TransportPeer {
  readonly id: number;
}

/** The part of a transport Server the game host uses (a Server satisfies it; tests pass a fake). */
export interface HostTransport {
  onMessage(type: string, callback: (peer: TransportPeer, payload: Record<string, unknown>) => void): () => void;
  onDisconnect(callback: (peer: TransportPeer, reason: string) => void): () => void;
  /**
   * Throws (e.g. PayloadTooLargeError) before sending to anyone when the body cannot be sent; false when
   * some peer's reliable backlog reached its high-water mark.
   */
  broadcast(type: string, payload: object, options?: { channel?: Channel }): boolean;
  /** Smoothed RTT in seconds, undefined if not measured or not connected. */
  getRtt(peerId: number): number | undefined;
  /**
   * A room that holds seats (main/seats/seatTransport.ts) says when a player's link went silent and when it
   * is back; such a player leaves only with onDisconnect, once its seat is let go. Absent: no seats are held.
   */
  onSeatChange?(callback: (peer: TransportPeer, change: 'held' | 'resumed') => void): () => void;
}

/** The part of a transport Client the game client uses (a Client satisfies it; tests pass a fake). */
export interface GuestTransport {
  onMessage(type: string, callback: (payload: Record<string, unknown>) => void): () => void;
  onDisconnect(callback: (reason: string) => void): () => void;
  /** False when not connected, or when the reliable backlog reached its high-water mark. */
  send(type: string, payload: object, channel?: Channel): boolean;
}
