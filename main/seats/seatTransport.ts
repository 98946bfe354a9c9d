import type { ConnectionStats, HostTransport } from '../net/index';
import type { SeatChange, SeatRelease } from '../lobby/host/roomStep';

/**
 * The room's transport as the game sees it: players by seat (player id), whatever connection each sits on now.
 * `onDisconnect` is a seat let go for good; a link that went silent holds its seat (`onSeatChange`).
 */
export type SeatTransport = HostTransport & Required<Pick<HostTransport, 'onSeatChange'>>;

/** One change of a seat; `reason` only with 'released'. */
export interface SeatEvent {
  readonly seat: number;
  readonly change: SeatChange;
  readonly reason?: SeatRelease;
}

/** Who sits where: a room's seats by connection and back, and their changes. */
export interface SeatMap {
  seatOf(peerId: number): number | undefined;
  peerOf(seat: number): number | undefined;
  onChange(listener: (event: SeatEvent) => void): () => void;
}

/** Builds the game's view of a room's transport over its seats. */
export function seatTransport(server: HostTransport, seats: SeatMap): SeatTransport {
  return {
    onMessage(type, callback) {
      // Only seated players reach the game; a peer still at the door, or dropped for a newer link, does not.
      return server.onMessage(type, (peer, payload) => {
        const seat = seats.seatOf(peer.id);
        if (seat !== undefined) callback({ id: seat }, payload);
      });
    },
    onDisconnect(callback) {
      return seats.onChange(({ seat, change, reason }) => {
        if (change === 'released') callback({ id: seat }, reason ?? 'left');
      });
    },
    onSeatChange(callback) {
      return seats.onChange(({ seat, change }) => {
        if (change !== 'released') callback({ id: seat }, change);
      });
    },
    broadcast: (type, payload, options) => server.broadcast(type, payload, options),
    getRtt(seat) {
      const peer = seats.peerOf(seat);
      return peer === undefined ? undefined : server.getRtt(peer);
    },
    getPeers() {
      const out: { id: number; stats(): ConnectionStats }[] = [];
      for (const peer of server.getPeers()) {
        const seat = seats.seatOf(peer.id);
        if (seat !== undefined) out.push({ id: seat, stats: () => peer.stats() });
      }
      return out;
    },
  };
}
