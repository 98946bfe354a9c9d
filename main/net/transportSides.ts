import type { Channel } from '../../shared/net/channel';
import type { ConnectionStats } from './v1/netStats';

/** A peer as a host's side sees it: the transport's id, or the seat's in a room that holds seats. */
export interface TransportPeer {
  readonly id: number;
}

/**
 * What a room's host and its game use of a transport Server: a Server satisfies it, so does a room's view of its
 * players by seat (main/seats/seatTransport.ts), and tests pass a fake.
 */
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
  getPeers(): readonly { readonly id: number; stats(): ConnectionStats }[];
  /**
   * A room that holds seats says when a player's link went silent and when it is back; such a player leaves only
   * with onDisconnect, once its seat is let go. Absent: no seats are held.
   */
  onSeatChange?(callback: (peer: TransportPeer, change: 'held' | 'resumed') => void): () => void;
}

/**
 * What a guest and its game use of a transport Client: a Client satisfies it, so does a guest's link that outlives
 * its connections (main/seats/resumableLink.ts), and tests pass a fake.
 */
export interface GuestTransport {
  onMessage(type: string, callback: (payload: Record<string, unknown>) => void): () => void;
  onDisconnect(callback: (reason: string) => void): () => void;
  /** False when not connected, or when the reliable backlog reached its high-water mark. */
  send(type: string, payload: object, channel?: Channel): boolean;
  /** The connection's statistics, undefined when not connected. */
  stats(): ConnectionStats | undefined;
}
