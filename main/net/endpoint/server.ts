import { Channel } from '../../../shared/net/channel';
import { checkChannel } from './checkChannel';
import { encodeBody } from '../v1/connection';
import { EndpointDriver } from './driver';
import { resolveEndpointOptions, type EndpointOptions, type ResolvedEndpointOptions } from './endpointOptions';
import { Listeners, TypedListeners } from '../../base/listeners';
import { Peer } from './peer';
import { TrafficCounters } from '../v1/stats';
import { startLanDiscovery, type LanDiscoveryHandle, type LanDiscoveryOptions } from '../discovery';
import type { DatagramSocket, DatagramSource } from './datagramSocket';
import { Backpressure } from './backpressure/backpressure';
import { PeerTable } from './intake/peerTable';
import { ServerIntake } from './intake/serverIntake';
import { FlushQueue } from './flushQueue';
import { PayloadTooLargeError, SendQueueFullError } from '../errors';
import type { Link } from '../v1/link';
import type { Serializer } from '../v1/serialization';
import type { NativeParams } from '../native/handshake/negotiation';
import type { DirectionKeys } from '../native/protection/packetProtection';
import type { PathAddress } from '../native/migration/pathValidator';
import { randomBytes } from 'node:crypto';
import { createLink } from './createLink';
import type { ConnectLimits } from './connectLimiter';

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
  private readonly peers = new PeerTable();
  /** Connections that asked for a flush or received since the last one: only these are flushed. */
  private readonly unflushed = new FlushQueue<Link>(0);
  /** Connections that asked to be flushed at a time (see EndpointDriver.wakeAt). */
  private readonly waking = new FlushQueue<Link>(1);
  private readonly driver: EndpointDriver;
  private readonly connectListeners: Listeners<[Peer]>;
  private readonly disconnectListeners: Listeners<[Peer, string]>;
  private readonly messageListeners: TypedListeners<[Peer, never]>;
  private closing: Promise<void> | undefined;
  private socketClosed = false;
  private discovery: LanDiscoveryHandle | undefined;
  private readonly intake: ServerIntake;
  private readonly drainListeners: Listeners<[Peer]>;
  private readonly migrateListeners: Listeners<[Peer, string]>;
  /** Peers a send returned false for, until their backlog is back at the low-water mark. */
  private readonly pressure: Backpressure<Peer>;
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
    this.pressure = new Backpressure(
      resolved,
      () => this.driver.hurry(),
      (peer) => this.peers.get(peer.id) === peer && this.drainListeners.emit(peer),
    );
    this.intake = new ServerIntake({
      peers: this.peers,
      counters: this.counters,
      resolved,
      maxPeers: options.maxPeers,
      recvBufferSize: this.recvBufferSize,
      randomToken: options.randomToken,
      connectLimits: options.connectLimits,
      createPeer: (from, id, token, native, window, keys) => this.createPeer(from, id, token, native, window, keys),
      connected: (peer) => this.connectListeners.emit(peer),
      received: (link) => this.unflushed.add(link),
      transmit: (datagram, port, address) => this.transmit(datagram, port, address),
    });
    this.driver = new EndpointDriver(
      {
        handleDatagram: (data, from) => this.intake.handleDatagram(data, from),
        service: (now) => this.service(now),
        afterBatch: () => {
          this.unflushed.drain(flushLink);
          // Acknowledgements just applied may have drained a backpressured peer.
          this.pressure.sweep();
        },
        wake: () => this.waking.drain(flushLink),
        urgent: () => {
          for (const peer of this.peers.values()) if (peer.connection.pendingReliable > 0) return true;
          return false;
        },
      },
      {
        mode: resolved.drive,
        scheduler: resolved.scheduler,
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

  /** Called when a peer leaves, times out, is kicked or the server closes; with the reason (kind: `peer.departure`). */
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
    return [...this.peers.values()];
  }

  /** The peer with this id, if connected. */
  getPeer(peerId: number): Peer | undefined {
    return this.peers.get(peerId);
  }

  /** A peer's smoothed RTT in seconds, or undefined if not connected or not measured yet. */
  getRtt(peerId: number): number | undefined {
    return this.peers.get(peerId)?.rtt;
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
    const peer = this.peers.get(peerId);
    if (!peer) {
      encodeBody(this.resolved.serializer, type, payload); // still reports an unserializable payload
      return false;
    }
    const link = peer.connection;
    link.sendBody(encodeBody(link.serializer, type, payload, link.maxBody(ch)), ch);
    return this.pressure.afterSend(peer, ch);
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
    for (const peer of this.peers.values()) {
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
    for (const peer of this.peers.values()) {
      if (exclude?.has(peer.id) || peer.connection.closed) continue;
      const body = peer.connection.serializer === firstCodec ? firstBody : others?.get(peer.connection.serializer);
      if (body === undefined) continue;
      try {
        peer.connection.sendBody(body, channel);
      } catch (error) {
        // One peer that stopped acknowledging must not cost the others the message; its reliable stream
        // can no longer be complete, so it is dropped (as the reference drops a peer with too much unacked).
        if (!(error instanceof SendQueueFullError)) throw error;
        peer.connection.disconnect(error.message, 'queue-full');
        calm = false;
        continue;
      }
      if (!this.pressure.afterSend(peer, channel)) calm = false;
    }
    return calm;
  }

  /** Disconnects a peer, telling it so; `onDisconnect` fires with `reason`. Returns false if unknown. */
  disconnect(peerId: number, reason = 'disconnected by the server'): boolean {
    const peer = this.peers.get(peerId);
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
      getPlayerCount: () => this.peers.size,
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
    for (const peer of this.getPeers()) peer.connection.disconnect('server closed', 'server-closed');
    const discovery = this.discovery?.close();
    this.driver.stop();
    this.socketClosed = true;
    // Let the disconnect notices leave before the socket goes (sends complete asynchronously).
    this.closing = Promise.all([this.socket.close(), discovery]).then(() => undefined);
    return this.closing;
  }

  /** A native peer proved it receives at `to`: it is found and reached there from now on. */
  private moved(peer: Peer, to: PathAddress): void {
    const from = peer.endpoint;
    if (this.peers.move(peer, to.address, to.port)) this.migrateListeners.emit(peer, from);
  }

  private createPeer(
    from: DatagramSource,
    id: number,
    token: bigint,
    native?: NativeParams,
    peerRecvWindow?: number,
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
    const offered = native !== undefined || (this.resolved.native ? false : undefined);
    const peer = (ref.peer = new Peer(id, from.address, from.port, link, offered));
    this.peers.add(peer, native !== undefined);
    return peer;
  }

  private remove(peer: Peer, reason: string): void {
    if (this.peers.remove(peer)) this.disconnectListeners.emit(peer, reason);
  }

  private service(now: number): void {
    // A copy: a connection that times out leaves the table meanwhile.
    for (const peer of [...this.peers.values()]) peer.connection.service(now);
  }

  /** Sends to a peer's address; true when the socket took the bytes at once (see DatagramSocket.send). */
  private transmit(datagram: Uint8Array, port: number, address: string): boolean {
    if (this.socketClosed) return false;
    this.counters.countSent(datagram.length);
    return this.socket.send(datagram, port, address);
  }
}

/** Sends what a connection has waiting (a closed one sends nothing). */
const flushLink = (link: Link): void => link.flushAcks();
