import { Channel, isChannel } from '../../../shared/net/channel';
import { Connection, encodeBody } from '../v1/connection';
import { EndpointDriver } from './driver';
import {
  resolveEndpointOptions,
  randomToken,
  type EndpointOptions,
  type ResolvedEndpointOptions,
} from './endpointOptions';
import { packHeader } from '../v1/header';
import { V1DatagramReader, V1Kind } from '../v1/v1Datagram';
import { Listeners, TypedListeners } from '../../base/listeners';
import { Peer } from './peer';
import { ReservedType } from '../v1/protocol';
import { DropReason, TrafficCounters } from '../v1/stats';
import { startLanDiscovery, type LanDiscoveryHandle, type LanDiscoveryOptions } from '../discovery';
import type { DatagramSocket, DatagramSource } from './datagramSocket';
import { DrainList } from './drainList';
import { EndpointMap } from './endpointMap';
import { FlushQueue } from './flushQueue';
import { PayloadTooLargeError, SendQueueFullError } from '../errors';
import type { Link } from '../v1/link';
import type { Serializer } from '../v1/serialization';
import { NativeAdmission } from '../native/admission';
import { NativeConnection } from '../native/nativeConnection';
import { isNativeDatagram } from '../native/nativePacket';
import { acceptedPayload, recvWindowFor, type NativeParams } from '../native/negotiation';
import type { DirectionKeys } from '../native/packetProtection';
import type { PathAddress } from '../native/pathValidator';
import { randomBytes } from 'node:crypto';
import { createLink } from './createLink';
import { Native } from '../native/nativeWire';
import { AcceptTokens, MAX_TOKEN_PEER_ID } from '../v1/acceptTokens';
import { ConnectLimiter, resolveConnectLimits, type ConnectLimits } from './connectLimiter';

const { RELIABLE_ORDERED, RELIABLE_UNORDERED } = Channel;
const { UNKNOWN_SOURCE } = DropReason;

/** Options of {@link Server.listen}. */
export interface ServerOptions extends EndpointOptions {
  /** UDP port; 0 picks a free one (read `server.port`). */
  port: number;
  /** Address to bind. Default 0.0.0.0 (binding an interface IP breaks LAN broadcast on Linux). */
  host?: string;
  /** Connected peers at most; further connect requests are ignored, as in the reference. */
  maxPeers?: number;
  /** Source of native connection tokens; default: 64 random bits from the OS. (v1 tokens are keyed MACs.) */
  randomToken?: () => bigint;
  /** Connect attempts per source address and per /24 from addresses without a peer; `false`: unlimited. */
  connectLimits?: Partial<ConnectLimits> | false;
}

/** A message map: message type → payload shape. */
export type MessageMap = object;
type Payload<M, K> = K extends keyof M ? M[K] : Record<string, unknown>;

/**
 * The authoritative side of a gale.net game: accepts Clients on one UDP socket, sends and
 * broadcasts messages to them, and reacts to theirs. Speaks gale.net v1.
 */
export class Server<In extends MessageMap = Record<string, Record<string, unknown>>, Out extends MessageMap = In> {
  readonly counters = new TrafficCounters();
  readonly maxPeers: number | undefined;
  readonly heartbeatInterval: number;
  readonly timeout: number;
  private readonly byEndpoint = new EndpointMap<Peer>();
  /** Native peers by token: a native datagram from an address without a peer may be one moving (see migration). */
  private readonly byToken = new Map<bigint, Peer>();
  /** Connections that asked for a flush or received since the last one: only these are flushed. */
  private readonly unflushed = new FlushQueue<Link>(0);
  /** Connections that asked to be flushed at a time (see EndpointDriver.wakeAt). */
  private readonly waking = new FlushQueue<Link>(1);
  private readonly byId = new Map<number, Peer>();
  private nextPeerId = 1;
  private readonly driver: EndpointDriver;
  private readonly connectListeners: Listeners<[Peer]>;
  private readonly disconnectListeners: Listeners<[Peer, string]>;
  private readonly messageListeners: TypedListeners<[Peer, never]>;
  private closing: Promise<void> | undefined;
  private socketClosed = false;
  private discovery: LanDiscoveryHandle | undefined;
  private readonly admission: NativeAdmission;
  /** v1 accepts carry these tokens; a v1 peer exists only once a datagram echoes one from its address. */
  private readonly acceptTokens: AcceptTokens;
  private readonly limiter: ConnectLimiter;
  private readonly acceptPayloads = new WeakMap<Peer, Record<string, unknown>>();
  private readonly drainListeners: Listeners<[Peer]>;
  private readonly migrateListeners: Listeners<[Peer, string]>;
  /** Peers a send returned false for, until their backlog is back at the low-water mark. */
  private readonly pressured = new DrainList<Peer>();
  /** The bound port. */
  readonly port: number;
  /** Receive buffer the OS granted, bytes. */
  readonly recvBufferSize: number;

  /**
   * Binds the port (on the socket `options.openSocket` opens; default UDP) and starts serving. Rejects with a
   * {@link BindError} naming a busy port.
   */
  static async listen<I extends MessageMap = Record<string, Record<string, unknown>>, O extends MessageMap = I>(
    options: ServerOptions,
  ): Promise<Server<I, O>> {
    const resolved = resolveEndpointOptions(options);
    if (options.maxPeers !== undefined && !(Number.isInteger(options.maxPeers) && options.maxPeers >= 1)) {
      throw new RangeError(`maxPeers must be a whole number ≥ 1, got ${options.maxPeers}`);
    }
    const socket = await resolved.openSocket({
      port: options.port,
      host: options.host ?? '0.0.0.0',
      recvBufferSize: resolved.recvBufferSize,
    });
    return new Server<I, O>(socket, options, resolved);
  }

  private constructor(
    private readonly socket: DatagramSocket,
    private readonly options: ServerOptions,
    private readonly resolved: ResolvedEndpointOptions,
  ) {
    this.port = socket.port;
    this.recvBufferSize = socket.recvBufferSize;
    this.maxPeers = options.maxPeers;
    this.heartbeatInterval = resolved.heartbeatInterval;
    this.timeout = resolved.timeout;
    const onError = resolved.onCallbackError;
    this.connectListeners = new Listeners(onError);
    this.disconnectListeners = new Listeners(onError);
    this.messageListeners = new TypedListeners(onError);
    this.drainListeners = new Listeners(onError);
    this.migrateListeners = new Listeners(onError);
    this.admission = new NativeAdmission(
      resolved.native,
      resolved.serializer,
      resolved.clock,
      recvWindowFor(this.recvBufferSize),
    );
    this.acceptTokens = new AcceptTokens({ clock: resolved.clock });
    this.limiter = new ConnectLimiter(resolveConnectLimits(options.connectLimits), resolved.clock);
    this.driver = new EndpointDriver(
      {
        handleDatagram: (data, from) => this.handleDatagram(data, from),
        service: (now) => this.service(now),
        afterBatch: () => {
          this.unflushed.drain(flushLink);
          // Acknowledgements just applied may have drained a backpressured peer.
          if (this.pressured.size !== 0) this.pressured.sweep(this.stillPressured, this.relieve);
        },
        wake: () => this.waking.drain(flushLink),
        urgent: () => {
          for (const peer of this.byId.values()) if (peer.connection.pendingReliable > 0) return true;
          return false;
        },
      },
      {
        mode: resolved.drive,
        clock: resolved.clock,
        tickInterval: resolved.tickInterval,
        idleTickInterval: resolved.idleTickInterval,
        counters: this.counters,
      },
    );
    socket.listen({
      message: (data, from) => this.driver.onDatagram(data, from),
      sendError: () => (this.counters.sendErrors += 1),
      // Socket-level errors (e.g. ICMP unreachable reported late) are not fatal to a UDP server.
      error: () => undefined,
    });
  }

  /**
   * Called with each newly connected peer. Returns an unsubscribe function. A native peer connects with the accept
   * (its cookie proved its address); a v1 peer with its first datagram carrying the accept's token (a v1 client
   * pings at once), which is where the server first keeps anything for it.
   */
  onConnect(callback: (peer: Peer) => void): () => void {
    return this.connectListeners.add(callback);
  }

  /** Called when a peer leaves, times out, is kicked, or the server closes; with the reason. */
  onDisconnect(callback: (peer: Peer, reason: string) => void): () => void {
    return this.disconnectListeners.add(callback);
  }

  /**
   * Called with a peer once a send to it that returned false (its reliable backlog had reached
   * `highWaterMark`) is followed by the backlog falling to `lowWaterMark`: once per such episode, as a
   * Node stream's 'drain'. Not called for a peer that disconnects meanwhile.
   */
  onDrain(callback: (peer: Peer) => void): () => void {
    return this.drainListeners.add(callback);
  }

  /**
   * Called when a native peer moved to another address (NAT rebinding, a new network): with the peer, whose
   * `endpoint` is now the new one, and the old endpoint. It moved only after answering a challenge sent there,
   * so a third party replaying its datagrams cannot move it. v1 peers never move (as in the reference).
   */
  onMigrate(callback: (peer: Peer, from: string) => void): () => void {
    return this.migrateListeners.add(callback);
  }

  /** Called with (peer, payload) for every message of `type` from any peer. */
  onMessage<K extends keyof In & string>(type: K, callback: (peer: Peer, payload: Payload<In, K>) => void): () => void {
    return this.messageListeners.add(type, callback as (peer: Peer, payload: never) => void);
  }

  /** The connected peers. */
  getPeers(): Peer[] {
    return [...this.byId.values()];
  }

  /** The peer with this id, if connected. */
  getPeer(peerId: number): Peer | undefined {
    return this.byId.get(peerId);
  }

  /** A peer's smoothed RTT in seconds, or undefined if not connected or not measured yet. */
  getRtt(peerId: number): number | undefined {
    return this.byId.get(peerId)?.rtt;
  }

  /**
   * Sends to one peer. Returns false if no such peer, and false when a reliable message was sent but the
   * peer's reliable backlog is at `highWaterMark` (`peer.needsDrain` tells the two apart): hold further
   * reliable messages until `onDrain` names the peer. An unreliable message sent returns true. Throws
   * PayloadTooLargeError on a body larger than the peer's connection carries (v1: 1200 bytes; native:
   * `native.maxMessageSize`), SendQueueFullError at `maxQueued`.
   */
  sendTo<K extends keyof Out & string>(
    peerId: number,
    type: K,
    payload: Payload<Out, K>,
    channel: Channel = Channel.UNRELIABLE,
  ): boolean {
    const ch = checkChannel(channel);
    const peer = this.byId.get(peerId);
    if (!peer) {
      encodeBody(this.resolved.serializer, type, payload); // still reports an unserializable payload
      return false;
    }
    const link = peer.connection;
    link.sendBody(encodeBody(link.serializer, type, payload, link.maxBody(ch)), ch);
    return this.belowMark(peer, ch);
  }

  /**
   * Sends to every peer but those in `exclude`, serializing once per codec in use. Returns true when every
   * recipient took the message below its `highWaterMark` (always for an unreliable message, also with no
   * recipients); false when some peer's reliable backlog is at the mark (`onDrain` names it later) or the
   * peer was dropped. Throws PayloadTooLargeError before
   * sending to anyone when some recipient cannot carry the body. A peer whose reliable send queue is full is
   * disconnected (reason: the queue is full) instead of failing the rest.
   */
  broadcast<K extends keyof Out & string>(
    type: K,
    payload: Payload<Out, K>,
    options: { channel?: Channel; exclude?: Iterable<number> } = {},
  ): boolean {
    const channel = checkChannel(options.channel ?? Channel.UNRELIABLE);
    const exclude = options.exclude === undefined ? undefined : new Set(options.exclude);
    // Pass 1: one body per codec in use (nearly always a single one, kept in locals: no allocation per peer or
    // per call), and every recipient checked against its limit before anyone is sent anything.
    let firstCodec: Serializer | undefined;
    let firstBody: Uint8Array | undefined;
    let others: Map<Serializer, Uint8Array> | undefined;
    for (const peer of this.byId.values()) {
      if (exclude?.has(peer.id)) continue;
      const link = peer.connection;
      let body: Uint8Array | undefined;
      if (firstCodec === undefined || firstCodec === link.serializer) {
        firstCodec = link.serializer;
        body = firstBody ??= encodeBody(link.serializer, type, payload, Infinity);
      } else {
        others ??= new Map();
        body = others.get(link.serializer);
        if (!body) others.set(link.serializer, (body = encodeBody(link.serializer, type, payload, Infinity)));
      }
      const limit = link.maxBody(channel);
      if (body.length > limit) throw new PayloadTooLargeError(type, body.length, limit);
    }
    // With nobody to send to, still report a payload that cannot be serialized.
    if (firstCodec === undefined) encodeBody(this.resolved.serializer, type, payload, Infinity);
    let calm = true;
    // Pass 2 walks the live map: a peer dropped meanwhile is skipped (peers are only added by received datagrams).
    for (const peer of this.byId.values()) {
      if (exclude?.has(peer.id) || peer.connection.closed) continue;
      const body = peer.connection.serializer === firstCodec ? firstBody : others?.get(peer.connection.serializer);
      if (body === undefined) continue;
      try {
        peer.connection.sendBody(body, channel);
      } catch (error) {
        // One peer that stopped acknowledging must not cost the others the message; its reliable stream
        // can no longer be complete, so it is dropped (as the reference drops a peer with too much unacked).
        if (!(error instanceof SendQueueFullError)) throw error;
        peer.connection.disconnect(error.message);
        calm = false;
        continue;
      }
      if (!this.belowMark(peer, channel)) calm = false;
    }
    return calm;
  }

  /** Disconnects a peer, telling it so; `onDisconnect` fires with `reason`. Returns false if unknown. */
  disconnect(peerId: number, reason = 'disconnected by the server'): boolean {
    const peer = this.byId.get(peerId);
    if (!peer) return false;
    peer.connection.disconnect(reason);
    return true;
  }

  /**
   * Answers LAN discovery requests (reference-compatible, with the live player count) until the
   * server closes. `port` defaults to 9998; other options (announcements, extra info, the player
   * count) pass through.
   * Only for servers on a local network.
   */
  async enableLanDiscovery(
    name: string,
    options: Partial<Omit<LanDiscoveryOptions, 'name' | 'gamePort'>> = {},
  ): Promise<LanDiscoveryHandle> {
    if (this.closing) throw new Error('server is closed');
    await this.discovery?.close();
    this.discovery = await startLanDiscovery({
      getExtraInfo: () => (this.maxPeers !== undefined ? { capacity: this.maxPeers } : {}),
      // Connected peers by default; an application with its own notion of players (a lobby) passes its count.
      getPlayerCount: () => this.byId.size,
      ...options,
      name,
      gamePort: this.port,
    });
    return this.discovery;
  }

  /** Manual drive: handle what arrived, then heartbeats, retransmits, timeouts. Harmless in auto mode. */
  update(_dt = 0): void {
    this.driver.update();
  }

  /** Tells every peer the server is closing, then closes the socket. Not usable afterwards. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    for (const peer of this.getPeers()) peer.connection.disconnect('server closed');
    const discovery = this.discovery?.close();
    this.driver.stop();
    this.socketClosed = true;
    // Let the disconnect notices leave before the socket goes (sends complete asynchronously).
    this.closing = Promise.all([this.socket.close(), discovery]).then(() => undefined);
    return this.closing;
  }

  /** Checks v1 datagrams (a connect request is held to its source's limits first); it holds the last one read. */
  private readonly v1Datagrams = new V1DatagramReader('server', (address) => this.limiter.check(address));

  private handleDatagram(data: Uint8Array, from: DatagramSource): void {
    this.counters.countReceived(data.length);
    if (isNativeDatagram(data)) return this.handleNative(data, from);
    const peer = this.byEndpoint.get(from.address, from.port);
    const datagram = this.v1Datagrams.read(data, peer?.token, this.resolved.serializer, from.address);
    switch (datagram.kind) {
      case V1Kind.DROP:
        // A token from an address without a peer: maybe the first datagram of a v1 client we accepted.
        if (datagram.reason === UNKNOWN_SOURCE) return this.admitProven(data, from);
        return this.counters.drop(datagram.reason);
      case V1Kind.HANDSHAKE: {
        if (datagram.message.type !== ReservedType.CONNECT_REQUEST)
          return this.counters.drop(peer ? DropReason.BAD_TOKEN : UNKNOWN_SOURCE);
        if (peer) return this.sendAccept(peer);
        return this.admit(from, datagram.message.payload, data.length);
      }
      case V1Kind.MESSAGE: {
        // A token matched, so there is a peer.
        const link = peer!.connection;
        if (!(link instanceof Connection)) return this.counters.drop(DropReason.WRONG_PROTOCOL);
        link.receive(datagram, datagram.message, data.length);
        this.unflushed.add(link); // it owes an ack
      }
    }
  }

  /**
   * A native datagram: only from a peer that negotiated the native protocol. From an address without a peer, the
   * token names the connection (its id, as QUIC's): the connection authenticates the datagram and decides whether
   * that address is challenged; the peer moves only once the challenge is answered from there.
   */
  private handleNative(data: Uint8Array, from: DatagramSource): void {
    if (data.length > Native.MAX_MTU) return this.counters.drop(DropReason.TOO_LONG);
    const peer = this.byEndpoint.get(from.address, from.port);
    if (peer) {
      if (!(peer.connection instanceof NativeConnection)) return this.counters.drop(DropReason.WRONG_PROTOCOL);
      peer.connection.receiveDatagram(data);
      this.unflushed.add(peer.connection); // it may owe acks
      return;
    }
    const moving = data.length >= Native.HEADER_SIZE ? this.byToken.get(readToken(data)) : undefined;
    if (!moving) return this.counters.drop(DropReason.UNKNOWN_SOURCE);
    const link = moving.connection as NativeConnection;
    link.receiveDatagram(data, { address: from.address, port: from.port });
    this.unflushed.add(link);
  }

  /** A native peer proved it receives at `to`: it is found and reached there from now on. */
  private moved(peer: Peer, to: PathAddress): void {
    if (this.byId.get(peer.id) !== peer) return;
    const from = peer.endpoint;
    if (this.byEndpoint.get(peer.address, peer.port) === peer) this.byEndpoint.delete(peer.address, peer.port);
    peer.moveTo(to.address, to.port);
    this.byEndpoint.set(to.address, to.port, peer);
    this.migrateListeners.emit(peer, from);
  }

  /** A connect request from an address without a peer: v1, a native challenge, or a native peer. */
  private admit(from: DatagramSource, payload: Record<string, unknown>, size: number): void {
    const decision = this.admission.decide(payload, size, from.address, from.port);
    switch (decision.kind) {
      case 'drop':
        return this.counters.drop(decision.reason);
      case 'challenge':
        this.transmit(decision.datagram, from.port, from.address);
        return;
      case 'v1':
        return this.acceptV1(from);
      case 'native':
        return this.accept(from, decision.params, decision.peerRecvWindow, decision.keys);
    }
  }

  private get full(): boolean {
    return this.maxPeers !== undefined && this.byId.size >= this.maxPeers;
  }

  /**
   * Answers a v1 connect request statelessly: the accept names the next peer id and carries a token bound to the
   * source address and port, and nothing is kept. A spoofed request costs one accept and no slot, timer or memory.
   */
  private acceptV1(from: DatagramSource): void {
    if (this.full || this.nextPeerId > MAX_TOKEN_PEER_ID) return this.counters.drop(DropReason.FULL);
    const id = this.nextPeerId++;
    const token = this.acceptTokens.issue(from.address, from.port, id);
    if (token === undefined) return; // a broken clock, or the 2^-64 token 0: the client asks again
    this.sendAcceptTo(token, { peer_id: id }, from.port, from.address);
  }

  /**
   * A datagram with a token from an address without a peer: when the token is one of our accepts to exactly this
   * address and port, recent and unused, the client has proven it receives there. Only then does its peer exist
   * (with the id its accept named), `onConnect` fire and the datagram reach the new connection. Checks are spent
   * against the source's connect limits, so a flood of guessed tokens costs a bounded number of MACs.
   */
  private admitProven(data: Uint8Array, from: DatagramSource): void {
    const reader = this.v1Datagrams;
    if (this.limiter.check(from.address) !== undefined) return this.counters.drop(UNKNOWN_SOURCE);
    const id = this.acceptTokens.check(reader.tokenHigh, reader.tokenLow, from.address, from.port);
    if (id === 0 || this.byId.has(id)) return this.counters.drop(UNKNOWN_SOURCE);
    if (this.full) return this.counters.drop(DropReason.FULL);
    this.acceptTokens.redeem(id);
    const peer = this.createPeer(from, id, reader.token, undefined, undefined);
    this.connectListeners.emit(peer);
    // The proving datagram is the peer's first (usually a ping to answer), unless onConnect already dropped it.
    if (this.byEndpoint.get(from.address, from.port) !== peer) return;
    const datagram = this.v1Datagrams.read(data, peer.token, this.resolved.serializer);
    const link = peer.connection;
    if (datagram.kind === V1Kind.DROP) return this.counters.drop(datagram.reason);
    // A nonzero token never reads as a handshake; a v1 admission always makes a v1 connection.
    if (datagram.kind !== V1Kind.MESSAGE || !(link instanceof Connection)) return;
    link.receive(datagram, datagram.message, data.length);
    this.unflushed.add(link);
  }

  /** A native peer whose offer echoed our cookie: it exists from the accept on. */
  private accept(from: DatagramSource, native: NativeParams, peerRecvWindow: number, keys: DirectionKeys): void {
    if (this.full) return this.counters.drop(DropReason.FULL);
    const id = this.nextPeerId++;
    let token = (this.options.randomToken ?? randomToken)();
    // Tokens name native connections wherever their datagrams come from: never two alike.
    for (let tries = 0; this.byToken.has(token) && tries < 8; tries++) token = randomToken();
    if (this.byToken.has(token)) return this.counters.drop(DropReason.FULL);
    const peer = this.createPeer(from, id, token, native, peerRecvWindow, keys);
    this.acceptPayloads.set(peer, { peer_id: id, native: acceptedPayload(native) });
    this.sendAccept(peer);
    this.connectListeners.emit(peer);
  }

  private createPeer(
    from: DatagramSource,
    id: number,
    token: bigint,
    native: NativeParams | undefined,
    peerRecvWindow: number | undefined,
    keys?: DirectionKeys,
  ): Peer {
    const ref: { peer?: Peer } = {};
    const link = createLink(this.resolved, native, {
      token,
      // The peer's address now: a native peer may move (see onMigrate).
      transmit: (datagram) => this.transmit(datagram, ref.peer!.port, ref.peer!.address),
      onMessage: (type, payload) => this.messageListeners.emit(type, ref.peer!, payload as never),
      onClosed: (reason) => this.remove(ref.peer!, reason),
      requestFlush: () => {
        if (ref.peer) this.unflushed.add(ref.peer.connection);
        this.driver.requestPromptFlush();
      },
      requestWake: (at) => {
        if (ref.peer) this.waking.add(ref.peer.connection);
        this.driver.wakeAt(at);
      },
      peerRecvWindow,
      keys,
      migration: native && {
        sendTo: (datagram, path) => this.transmit(datagram, path.port, path.address),
        moved: (path) => this.moved(ref.peer!, path),
        random: (size) => randomBytes(size),
      },
    });
    const peer = (ref.peer = new Peer(id, from.address, from.port, link));
    this.byEndpoint.set(peer.address, peer.port, peer);
    this.byId.set(id, peer);
    if (native) this.byToken.set(token, peer);
    return peer;
  }

  /** The accept again, for a repeated request from a peer's address (as the reference answers it). */
  private sendAccept(peer: Peer): void {
    this.sendAcceptTo(peer.token, this.acceptPayloads.get(peer) ?? { peer_id: peer.id }, peer.port, peer.address);
  }

  private sendAcceptTo(token: bigint, payload: Record<string, unknown>, port: number, address: string): void {
    const body = this.resolved.serializer.serialize(ReservedType.CONNECT_ACCEPTED, payload);
    const header = packHeader({ channel: 0, token, sequence: 0, ack: 0, ackBitfield: 0 });
    const datagram = new Uint8Array(header.length + body.length);
    datagram.set(header);
    datagram.set(body, header.length);
    this.transmit(datagram, port, address);
  }

  private remove(peer: Peer, reason: string): void {
    if (this.byId.get(peer.id) !== peer) return;
    this.byId.delete(peer.id);
    if (this.byEndpoint.get(peer.address, peer.port) === peer) this.byEndpoint.delete(peer.address, peer.port);
    if (this.byToken.get(peer.token) === peer) this.byToken.delete(peer.token);
    this.disconnectListeners.emit(peer, reason);
  }

  private service(now: number): void {
    this.forEachConnection((c) => c.service(now));
  }

  private forEachConnection(fn: (c: Link) => void): void {
    for (const peer of [...this.byId.values()]) fn(peer.connection);
  }

  /** Sends to a peer's address; true when the socket took the bytes at once (see DatagramSocket.send). */
  private transmit(datagram: Uint8Array, port: number, address: string): boolean {
    if (this.socketClosed) return false;
    this.counters.countSent(datagram.length);
    return this.socket.send(datagram, port, address);
  }

  /**
   * After a send to `peer`: true for an unreliable one (it queues nothing, and false would read as "not sent");
   * for a reliable one, false while the peer waits for its drain or when this send brought its backlog to the
   * high-water mark (it then waits for its drain).
   */
  private belowMark(peer: Peer, channel: Channel): boolean {
    if (channel !== RELIABLE_ORDERED && channel !== RELIABLE_UNORDERED) return true;
    // Reliable data in flight: retransmissions run on the fine tick (v1 sends reach no batch that would say so).
    this.driver.hurry();
    if (peer.needsDrain) return false;
    if (peer.connection.closed || peer.connection.pendingReliable < this.resolved.highWaterMark) return true;
    peer.needsDrain = true;
    this.pressured.add(peer);
    return false;
  }

  /** Whether a backpressured peer is still above the low-water mark (a closed one is not: it is forgotten). */
  private readonly stillPressured = (peer: Peer): boolean =>
    !peer.connection.closed && peer.connection.pendingReliable > this.resolved.lowWaterMark;

  /** A peer left the pressured list: drained (fires `onDrain`) or gone (silently). */
  private readonly relieve = (peer: Peer): void => {
    peer.needsDrain = false;
    if (!peer.connection.closed && this.byId.get(peer.id) === peer) this.drainListeners.emit(peer);
  };
}

/** The token of a native datagram (bytes 1–8, big-endian). */
function readToken(data: Uint8Array): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(1);
}

/** Sends what a connection has waiting (a closed one sends nothing). */
const flushLink = (link: Link): void => link.flushAcks();

/** Rejects channel ids that are not a {@link Channel}. */
export function checkChannel(channel: number): Channel {
  if (!isChannel(channel)) throw new RangeError(`unknown channel ${channel}; use Channel.*`);
  return channel;
}
