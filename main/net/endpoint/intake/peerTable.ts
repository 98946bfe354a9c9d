import { EndpointMap } from '../endpointMap';
import type { Peer } from '../peer';

/** A server's connected peers, found by id, by endpoint (every datagram) and, for native peers, by token (migration). */
export class PeerTable {
  private readonly byEndpoint = new EndpointMap<Peer>();
  /** Native peers by token: a native datagram from an address without a peer may be one moving (see migration). */
  private readonly byToken = new Map<bigint, Peer>();
  private readonly byId = new Map<number, Peer>();

  get size(): number {
    return this.byId.size;
  }

  /** The peers in order of arrival (a live view: copy it to remove while walking). */
  values(): IterableIterator<Peer> {
    return this.byId.values();
  }

  get(id: number): Peer | undefined {
    return this.byId.get(id);
  }

  has(id: number): boolean {
    return this.byId.has(id);
  }

  /** The peer a datagram from this endpoint belongs to. */
  at(address: string, port: number): Peer | undefined {
    return this.byEndpoint.get(address, port);
  }

  /** The native peer with this token, wherever its datagrams come from. */
  withToken(token: bigint): Peer | undefined {
    return this.byToken.get(token);
  }

  hasToken(token: bigint): boolean {
    return this.byToken.has(token);
  }

  /** Adds a peer at its endpoint; a native one is found by its token too. */
  add(peer: Peer, native: boolean): void {
    this.byEndpoint.set(peer.address, peer.port, peer);
    this.byId.set(peer.id, peer);
    if (native) this.byToken.set(peer.token, peer);
  }

  /** Removes a peer; false when it was not (or no longer) this table's. */
  remove(peer: Peer): boolean {
    if (this.byId.get(peer.id) !== peer) return false;
    this.byId.delete(peer.id);
    if (this.byEndpoint.get(peer.address, peer.port) === peer) this.byEndpoint.delete(peer.address, peer.port);
    if (this.byToken.get(peer.token) === peer) this.byToken.delete(peer.token);
    return true;
  }

  /** Moves a peer to the endpoint it proved it receives at; false when it is not this table's. */
  move(peer: Peer, address: string, port: number): boolean {
    if (this.byId.get(peer.id) !== peer) return false;
    if (this.byEndpoint.get(peer.address, peer.port) === peer) this.byEndpoint.delete(peer.address, peer.port);
    peer.moveTo(address, port);
    this.byEndpoint.set(address, port, peer);
    return true;
  }
}
