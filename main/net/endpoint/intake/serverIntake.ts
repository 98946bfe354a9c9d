import { Connection } from '../../v1/connection';
import { packHeader } from '../../v1/header';
import { V1DatagramReader, V1Kind } from '../../v1/v1Datagram';
import { ReservedType } from '../../v1/protocol';
import { DropReason, type TrafficCounters } from '../../v1/stats';
import type { Link } from '../../v1/link';
import type { Serializer } from '../../v1/serialization';
import { AcceptTokens, MAX_TOKEN_PEER_ID } from '../../v1/acceptTokens';
import { NativeAdmission } from '../../native/handshake/admission';
import { NativeConnection } from '../../native/nativeConnection';
import { isNativeDatagram } from '../../native/wire/nativePacket';
import { acceptedPayload, recvWindowFor, type NativeParams } from '../../native/handshake/negotiation';
import type { DirectionKeys } from '../../native/protection/packetProtection';
import { Native } from '../../native/wire/nativeWire';
import type { DatagramSource } from '../datagramSocket';
import { randomToken, type ResolvedEndpointOptions } from '../endpointOptions';
import { ConnectLimiter, resolveConnectLimits, type ConnectLimits } from '../connectLimiter';
import type { Peer } from '../peer';
import type { PeerTable } from './peerTable';
import { PeerIds } from './peerIds';

const { UNKNOWN_SOURCE } = DropReason;

/** What a {@link ServerIntake} needs of its server. */
export interface IntakeHost {
  readonly peers: PeerTable;
  readonly counters: TrafficCounters;
  readonly resolved: ResolvedEndpointOptions;
  readonly maxPeers: number | undefined;
  readonly recvBufferSize: number;
  /** Source of native connection tokens (default: 64 random bits from the OS). */
  readonly randomToken: (() => bigint) | undefined;
  readonly connectLimits: Partial<ConnectLimits> | false | undefined;
  /** Makes the peer and its connection (and files it in `peers`). */
  createPeer(
    from: DatagramSource,
    id: number,
    token: bigint,
    native?: NativeParams,
    peerRecvWindow?: number,
    keys?: DirectionKeys,
  ): Peer;
  /** A peer exists from now on: `onConnect`. */
  connected(peer: Peer): void;
  /** A connection received and may owe acks: flushed after the batch. */
  received(link: Link): void;
  transmit(datagram: Uint8Array, port: number, address: string): boolean;
}

/**
 * Where a server's datagrams enter: told apart by protocol, routed to the peer they belong to, and, from an
 * address without one, admitted (v1's stateless accept and its proof, the native cookie challenge, a native peer)
 * within the source's connect limits.
 */
export class ServerIntake {
  private readonly admission: NativeAdmission;
  /** v1 accepts carry these tokens; a v1 peer exists only once a datagram echoes one from its address. */
  private readonly acceptTokens: AcceptTokens;
  private readonly limiter: ConnectLimiter;
  private readonly acceptPayloads = new WeakMap<Peer, Record<string, unknown>>();
  /** Ids are spent by a redeemed accept or a native accept, never by a connect request. */
  private readonly peerIds = new PeerIds(MAX_TOKEN_PEER_ID);
  /** Checks v1 datagrams (a connect request is held to its source's limits first); it holds the last one read. */
  private readonly v1Datagrams: V1DatagramReader;
  private readonly serializer: Serializer;

  constructor(private readonly host: IntakeHost) {
    const resolved = host.resolved;
    this.serializer = resolved.serializer;
    this.admission = new NativeAdmission(
      resolved.native,
      resolved.serializer,
      resolved.clock,
      recvWindowFor(host.recvBufferSize),
    );
    this.acceptTokens = new AcceptTokens({ clock: resolved.clock });
    this.limiter = new ConnectLimiter(resolveConnectLimits(host.connectLimits), resolved.clock);
    this.v1Datagrams = new V1DatagramReader('server', (address) => this.limiter.check(address));
  }

  handleDatagram(data: Uint8Array, from: DatagramSource): void {
    const host = this.host;
    host.counters.countReceived(data.length);
    if (isNativeDatagram(data)) return this.handleNative(data, from);
    const peer = host.peers.at(from.address, from.port);
    const datagram = this.v1Datagrams.read(data, peer?.token, this.serializer, from.address);
    switch (datagram.kind) {
      case V1Kind.DROP:
        // A token from an address without a peer: maybe the first datagram of a v1 client we accepted.
        if (datagram.reason === UNKNOWN_SOURCE) return this.admitProven(data, from);
        return host.counters.drop(datagram.reason);
      case V1Kind.HANDSHAKE: {
        if (datagram.message.type !== ReservedType.CONNECT_REQUEST)
          return host.counters.drop(peer ? DropReason.BAD_TOKEN : UNKNOWN_SOURCE);
        if (peer) return this.sendAccept(peer);
        return this.admit(from, datagram.message.payload, data.length);
      }
      case V1Kind.MESSAGE: {
        // A token matched, so there is a peer.
        const link = peer!.connection;
        if (!(link instanceof Connection)) return host.counters.drop(DropReason.WRONG_PROTOCOL);
        link.receive(datagram, datagram.message, data.length);
        host.received(link); // it owes an ack
      }
    }
  }

  /**
   * A native datagram: only from a peer that negotiated the native protocol. From an address without a peer, the
   * token names the connection (its id, as QUIC's): the connection authenticates the datagram and decides whether
   * that address is challenged; the peer moves only once the challenge is answered from there.
   */
  private handleNative(data: Uint8Array, from: DatagramSource): void {
    const host = this.host;
    if (data.length > Native.MAX_MTU) return host.counters.drop(DropReason.TOO_LONG);
    const peer = host.peers.at(from.address, from.port);
    if (peer) {
      if (!(peer.connection instanceof NativeConnection)) return host.counters.drop(DropReason.WRONG_PROTOCOL);
      peer.connection.receiveDatagram(data);
      host.received(peer.connection); // it may owe acks
      return;
    }
    const moving = data.length >= Native.HEADER_SIZE ? host.peers.withToken(readToken(data)) : undefined;
    if (!moving) return host.counters.drop(DropReason.UNKNOWN_SOURCE);
    const link = moving.connection as NativeConnection;
    link.receiveDatagram(data, { address: from.address, port: from.port });
    host.received(link);
  }

  /** A connect request from an address without a peer: v1, a native challenge, or a native peer. */
  private admit(from: DatagramSource, payload: Record<string, unknown>, size: number): void {
    const decision = this.admission.decide(payload, size, from.address, from.port);
    switch (decision.kind) {
      case 'drop':
        return this.host.counters.drop(decision.reason);
      case 'challenge':
        this.host.transmit(decision.datagram, from.port, from.address);
        return;
      case 'v1':
        return this.acceptV1(from);
      case 'native':
        return this.accept(from, decision.params, decision.peerRecvWindow, decision.keys);
    }
  }

  private get full(): boolean {
    const { maxPeers, peers } = this.host;
    return maxPeers !== undefined && peers.size >= maxPeers;
  }

  /**
   * Answers a v1 connect request statelessly: the accept names a peer id it does not spend and carries a token bound
   * to the source address and port, and nothing is kept. A spoofed request costs one accept and no slot, timer,
   * memory or id.
   */
  private acceptV1(from: DatagramSource): void {
    const id = this.full ? undefined : this.peerIds.name();
    if (id === undefined) return this.host.counters.drop(DropReason.FULL);
    const token = this.acceptTokens.issue(from.address, from.port, id);
    if (token === undefined) return; // a broken clock, or the 2^-64 token 0: the client asks again
    this.sendAcceptTo(token, { peer_id: id }, from.port, from.address);
  }

  /**
   * A datagram with a token from an address without a peer: when the token is one of our accepts to exactly this
   * address and port, recent and its id unspent, the client has proven it receives there. Only then is the id spent,
   * its peer exist (with the id its accept named), `onConnect` fire and the datagram reach the new connection. Checks are spent
   * against the source's connect limits, so a flood of guessed tokens costs a bounded number of MACs.
   */
  private admitProven(data: Uint8Array, from: DatagramSource): void {
    const { host, v1Datagrams: reader } = this;
    if (this.limiter.check(from.address) !== undefined) return host.counters.drop(UNKNOWN_SOURCE);
    const id = this.acceptTokens.check(reader.tokenHigh, reader.tokenLow, from.address, from.port);
    if (id === 0) return host.counters.drop(UNKNOWN_SOURCE);
    if (this.full) return host.counters.drop(DropReason.FULL);
    if (!this.peerIds.redeem(id)) return host.counters.drop(UNKNOWN_SOURCE);
    const peer = host.createPeer(from, id, reader.token);
    host.connected(peer);
    // The proving datagram is the peer's first (usually a ping to answer), unless onConnect already dropped it.
    if (host.peers.at(from.address, from.port) !== peer) return;
    const datagram = reader.read(data, peer.token, this.serializer);
    const link = peer.connection;
    if (datagram.kind === V1Kind.DROP) return host.counters.drop(datagram.reason);
    // A nonzero token never reads as a handshake; a v1 admission always makes a v1 connection.
    if (datagram.kind !== V1Kind.MESSAGE || !(link instanceof Connection)) return;
    link.receive(datagram, datagram.message, data.length);
    host.received(link);
  }

  /** A native peer whose offer echoed our cookie: it exists from the accept on. */
  private accept(from: DatagramSource, native: NativeParams, peerRecvWindow: number, keys: DirectionKeys): void {
    const host = this.host;
    const id = this.full ? undefined : this.peerIds.take();
    if (id === undefined) return host.counters.drop(DropReason.FULL);
    let token = (host.randomToken ?? randomToken)();
    // Tokens name native connections wherever their datagrams come from: never two alike.
    for (let tries = 0; host.peers.hasToken(token) && tries < 8; tries++) token = randomToken();
    if (host.peers.hasToken(token)) return host.counters.drop(DropReason.FULL);
    const peer = host.createPeer(from, id, token, native, peerRecvWindow, keys);
    this.acceptPayloads.set(peer, { peer_id: id, native: acceptedPayload(native) });
    this.sendAccept(peer);
    host.connected(peer);
  }

  /** The accept again, for a repeated request from a peer's address (as the reference answers it). */
  private sendAccept(peer: Peer): void {
    this.sendAcceptTo(peer.token, this.acceptPayloads.get(peer) ?? { peer_id: peer.id }, peer.port, peer.address);
  }

  private sendAcceptTo(token: bigint, payload: Record<string, unknown>, port: number, address: string): void {
    const body = this.serializer.serialize(ReservedType.CONNECT_ACCEPTED, payload);
    const header = packHeader({ channel: 0, token, sequence: 0, ack: 0, ackBitfield: 0 });
    const datagram = new Uint8Array(header.length + body.length);
    datagram.set(header);
    datagram.set(body, header.length);
    this.host.transmit(datagram, port, address);
  }
}

/** The token of a native datagram (bytes 1–8, big-endian). */
function readToken(data: Uint8Array): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(1);
}
