import { linkLost, type Peer } from '../net/index';
import type { Scheduler } from '../base/scheduler';
import { MAX_PING_MS } from '../../shared/lobby/lobbyLimits';
import { Channel } from '../../shared/net/channel';
import { LobbyMessage, RejectReason, type HostMessages } from '../../shared/lobby/lobbyMessages';
import { PlayerPath, type LobbyEvent, type LobbyPlayer, type LobbyState } from '../../shared/lobby/lobbyState';
import { RoomSeats, type SeatEvent } from './roomSeats';
import { seatGoneMessage } from './seatGoneMessage';
import { seatTransport, type SeatServer, type SeatTransport } from './seatTransport';

/** The binding of an internet guest's resume token: no IP address looks like it. */
const INTERNET_BINDING = 'internet path';

/** What a hosted room lends its seats: its state and events, its transport, how a guest came in. */
export interface SeatedRoomHost {
  readonly server: SeatServer & {
    sendTo(peerId: number, type: string, payload: never, channel: Channel): boolean;
    disconnect(peerId: number, reason: string): boolean;
  };
  readonly clock: Scheduler;
  /** Milliseconds of the wall clock, for the countdown players see. */
  readonly wallClock: () => number;
  readonly graceSec?: number;
  state(): LobbyState;
  /** Applies an event and sends it to every seated guest but `skip`. */
  apply(event: LobbyEvent, skip?: number): void;
  pathOf(peer: Peer): PlayerPath;
  /** A peer refused at the door: counted, told (already sent) and let go once that is delivered. */
  refused(peer: Peer, reason: RejectReason): void;
  /** A seat was let go: the room forgets what it kept per player (rate limits). */
  forget(seat: number): void;
}

/**
 * A hosted room's seats as the lobby sees them: the lobby events of a seat held ("reconnecting…" until its
 * deadline) or let go, the welcome's resume token, a guest taking its seat back, and where a seated player's
 * messages go now. The player id is the seat's and never changes; the connection under it may.
 */
export class SeatedRoom {
  readonly seats: RoomSeats;
  /** The transport by seat, for the game. */
  readonly gameTransport: SeatTransport;

  constructor(private readonly host: SeatedRoomHost) {
    this.seats = new RoomSeats({
      clock: host.clock,
      ...(host.graceSec !== undefined ? { graceSec: host.graceSec } : {}),
    });
    this.seats.onChange((event) => this.changed(event));
    this.gameTransport = seatTransport(host.server, this.seats);
  }

  /** What the welcome of a newly admitted peer carries: its resume token and the grace. */
  seat(peer: Peer): { resume: string; graceSec: number } {
    return { resume: this.seats.take(peer.id, peer.id, this.bindingOf(peer)), graceSec: this.seats.graceSec };
  }

  /**
   * What a resume token is bound to: a LAN guest's address. An internet guest's address is the mux's label of its
   * ICE origin, which a rebinding router, a new WAN address or another relay changes by nature; the path itself is
   * authenticated (the key agreement on the room code), so its token is bound to coming in over the internet.
   */
  private bindingOf(peer: Peer): string {
    return this.host.pathOf(peer) === PlayerPath.LAN ? peer.address : INTERNET_BINDING;
  }

  /** A connection ended: a silent one leaves its seat held for the grace, a goodbye lets it go. */
  departed(peer: Peer, _reason: string): void {
    const seat = this.seats.seatOf(peer.id);
    if (seat === undefined) return;
    if (linkLost(peer.departure)) this.seats.lost(peer.id);
    else this.seats.release(seat, 'left');
  }

  /** A guest comes back with its resume token: its seat, name, colour, ready state and score are its own again. */
  resume(peer: Peer, token: string): void {
    const { host } = this;
    const back = this.seats.resume(token, peer.id, this.bindingOf(peer));
    if (!back.ok) {
      this.sendTo(peer.id, LobbyMessage.REJECTED, {
        reason: RejectReason.SEAT_GONE,
        message: seatGoneMessage(back.reason),
      });
      return host.refused(peer, RejectReason.SEAT_GONE);
    }
    // An older link of the same guest that has not timed out yet goes quietly: it sits in no seat any more.
    if (back.replacedPeer !== undefined) host.server.disconnect(back.replacedPeer, 'replaced by a newer connection');
    const player = host.state().players.find((p) => p.id === back.seat);
    if (player) {
      const { awayUntil: _away, linkQuiet: _quiet, ...rest } = player;
      host.apply(
        { kind: 'joined', player: { ...rest, pingMs: this.pingOf(peer.id), path: host.pathOf(peer) } },
        back.seat,
      );
    }
    this.send(back.seat, LobbyMessage.WELCOME, {
      you: back.seat,
      state: host.state(),
      resume: back.token,
      graceSec: this.seats.graceSec,
    });
  }

  /** Removes a seated player (a held seat at once); the connection it sat on, if any, for the caller to close. */
  release(seat: number): { readonly removed: boolean; readonly peerId: number | undefined } {
    const peerId = this.seats.peerOf(seat);
    return { removed: this.seats.release(seat, 'kicked'), peerId };
  }

  /** Whether `playerId` sits in a seat of this room (held or not). */
  has(playerId: number): boolean {
    return this.seats.seats.includes(playerId);
  }

  /** The seat of a connection (undefined at the door or after it was replaced). */
  seatOf(peerId: number): number | undefined {
    return this.seats.seatOf(peerId);
  }

  /** Every seated player's ping, by seat (held seats have none). */
  pings(): Array<[number, number | null]> {
    const pings: Array<[number, number | null]> = [];
    for (const seat of this.seats.seats) {
      const peerId = this.seats.peerOf(seat);
      if (peerId !== undefined) pings.push([seat, this.pingOf(peerId)]);
    }
    return pings;
  }

  /** A connection's ping in ms for the lobby, null before it was measured. */
  pingOf(peerId: number): number | null {
    const rtt = this.host.server.getRtt(peerId);
    return rtt === undefined ? null : Math.min(MAX_PING_MS, Math.round(rtt * 1000));
  }

  /** Sends to a seated player's current connection; nothing while its seat waits. */
  send<K extends keyof HostMessages>(seat: number, type: K, payload: HostMessages[K]): void {
    const peerId = this.seats.peerOf(seat);
    if (peerId !== undefined) this.sendTo(peerId, type, payload);
  }

  /** Sends to a connection, seated or at the door. */
  sendTo<K extends keyof HostMessages>(peerId: number, type: K, payload: HostMessages[K]): void {
    this.host.server.sendTo(peerId, type, payload as never, Channel.RELIABLE_ORDERED);
  }

  /** Forgets every seat (the room closes). */
  close(): void {
    this.seats.close();
  }

  /** Tells the room what happened to a seat: its player away ("reconnecting…" with a countdown) or gone. */
  private changed({ seat, change, reason }: SeatEvent): void {
    const { host } = this;
    if (change === 'released') {
      host.forget(seat);
      const why = reason === 'grace-over' ? 'timed-out' : reason === 'kicked' ? 'kicked' : 'left';
      return host.apply({ kind: 'left', playerId: seat, reason: why });
    }
    const player: LobbyPlayer | undefined = host.state().players.find((p) => p.id === seat);
    const deadline = this.seats.deadlineOf(seat);
    if (change !== 'held' || !player || deadline === undefined) return;
    const awayUntil = Math.round(host.wallClock() + deadline - host.clock.now());
    const { linkQuiet: _quiet, ...rest } = player;
    host.apply({ kind: 'joined', player: { ...rest, awayUntil } });
  }
}
