import { Channel } from '../../../shared/net/channel';
import { Connection, encodeBody } from '../v1/connection';
import { EndpointDriver } from './driver';
import { resolveEndpointOptions, type EndpointOptions, type ResolvedEndpointOptions } from './endpointOptions';
import { ConnectError } from '../errors';
import { V1DatagramReader, V1Kind } from '../v1/v1Datagram';
import { Listeners, TypedListeners } from '../../base/listeners';
import { Defaults, ReservedType } from '../v1/protocol';
import type { MessageMap } from './server';
import { checkChannel } from './checkChannel';
import { Backpressure, type Drainable } from './backpressure/backpressure';
import { DropReason, TrafficCounters } from '../v1/stats';
import type { ConnectionStats } from '../v1/netStats';
import type { DatagramSocket, DatagramSource } from './datagramSocket';
import type { Link, WireProtocol } from '../v1/link';
import { NativeConnection } from '../native/nativeConnection';
import { isNativeDatagram } from '../native/wire/nativePacket';
import { connectRefusal, connectRequestFor, readAccept, refusedConnect, socketFailure } from './clientHandshake';
import { startAttempt, takeChallenge, timedOut, type Attempt } from './clientHandshake';
import { createLink } from './createLink';
import { Native } from '../native/wire/nativeWire';
import type { ConnectFailure, DepartureKind } from '../departure';

/** Where a Client is in its life. */
export type ClientState = 'idle' | 'connecting' | 'connected' | 'closed';

type Payload<M, K> = K extends keyof M ? M[K] : Record<string, unknown>;

/**
 * The connecting side of a gale.net game: joins one Server over UDP, sends it messages and
 * reacts to the ones it sends back. Speaks gale.net v1.
 */
export class Client<In extends MessageMap = Record<string, Record<string, unknown>>, Out extends MessageMap = In> {
  readonly counters = new TrafficCounters();
  private readonly resolved: ResolvedEndpointOptions;
  private readonly driver: EndpointDriver;
  private readonly connectListeners: Listeners<[]>;
  private readonly failListeners: Listeners<[string, ConnectFailure]>;
  private readonly disconnectListeners: Listeners<[string, DepartureKind]>;
  private readonly messageListeners: TypedListeners<[never]>;
  private readonly drainListeners: Listeners<[]>;
  private stateValue: ClientState = 'idle';
  private attempt: Attempt | undefined;
  private socket: DatagramSocket | undefined;
  /** The current connection's backpressure (one per connection: a new one starts calm). */
  private drain: Drainable | undefined;
  private readonly pressure: Backpressure<Drainable>;
  private connection: Link | undefined;
  private server: { address: string; port: number } | undefined;
  private peerIdValue: number | undefined;
  /** Receive buffer the OS granted on the last socket, bytes. */
  recvBufferSize = 0;

  /** Checks the options (a RangeError names a bad one); sockets open on `connect`, through `options.openSocket`. */
  constructor(options: EndpointOptions = {}) {
    this.resolved = resolveEndpointOptions(options);
    const onError = this.resolved.onCallbackError;
    this.connectListeners = new Listeners(onError);
    this.failListeners = new Listeners(onError);
    this.disconnectListeners = new Listeners(onError);
    this.messageListeners = new TypedListeners(onError);
    this.drainListeners = new Listeners(onError);
    this.pressure = new Backpressure(
      this.resolved,
      () => this.driver.hurry(),
      (drain) => drain === this.drain && this.drainListeners.emit(),
    );
    this.driver = new EndpointDriver(
      {
        handleDatagram: (data, from) => this.handleDatagram(data, from),
        service: (now) => this.service(now),
        afterBatch: () => {
          this.connection?.flushAcks();
          // Acknowledgements just applied may have drained the backlog a send reported.
          this.pressure.sweep();
        },
        wake: () => this.connection?.flushAcks(),
        urgent: () => this.attempt !== undefined || (this.connection?.pendingReliable ?? 0) > 0,
      },
      {
        mode: this.resolved.drive,
        scheduler: this.resolved.scheduler,
        clock: this.resolved.clock,
        tickInterval: this.resolved.tickInterval,
        idleTickInterval: this.resolved.idleTickInterval,
        counters: this.counters,
      },
    );
  }

  /** idle, connecting, connected, or closed (after `close()`). */
  get state(): ClientState {
    return this.stateValue;
  }

  /** The id the server gave us, while connected. */
  get peerId(): number | undefined {
    return this.peerIdValue;
  }

  /** Native: bytes naming this connection, the same on both ends (see Link.channelBinding); undefined on v1. */
  get channelBinding(): Uint8Array | undefined {
    return this.connection?.channelBinding;
  }

  /** The unsigned 64-bit connection token, while connected. */
  get token(): bigint | undefined {
    return this.connection?.token;
  }

  /** 'native' when the server is ours and agreed to the fast path; 'v1' with a gale.net server; undefined when not connected. */
  get protocol(): WireProtocol | undefined {
    return this.connection?.protocol;
  }

  /** Called once the connection is established. */
  onConnect(callback: () => void): () => void {
    return this.connectListeners.add(callback);
  }

  /** Called with a reason and its kind when `connect` gives up. */
  onConnectFailed(callback: (reason: string, kind: ConnectFailure) => void): () => void {
    return this.failListeners.add(callback);
  }

  /** Called with a reason and its kind when an established connection ends without our own `disconnect()`. */
  onDisconnect(callback: (reason: string, kind: DepartureKind) => void): () => void {
    return this.disconnectListeners.add(callback);
  }

  /**
   * Called once a send that returned false (the reliable backlog had reached `highWaterMark`) is followed by
   * the backlog falling to `lowWaterMark`: once per such episode, as a Node stream's 'drain'. Not called when
   * the connection ends meanwhile.
   */
  onDrain(callback: () => void): () => void {
    return this.drainListeners.add(callback);
  }

  /** Whether a send returned false for backpressure and `onDrain` has not fired since. */
  get needsDrain(): boolean {
    return this.drain?.needsDrain ?? false;
  }

  /** Called with the payload of every message of `type`. */
  onMessage<K extends keyof In & string>(type: K, callback: (payload: Payload<In, K>) => void): () => void {
    return this.messageListeners.add(type, callback as (payload: never) => void);
  }

  /**
   * Starts connecting; retries every 0.5 s until accepted or `timeout` seconds pass. The promise
   * resolves on connect (v1: once the server answered our first datagram with the accept's token, so it holds a
   * peer for us) and rejects with a {@link ConnectError}; ignoring it is safe.
   */
  connect(host: string, port: number, options: { timeout?: number } = {}): Promise<void> {
    const refusal = connectRefusal(this.stateValue, port);
    if (refusal !== undefined) return refusedConnect(refusal);
    const timeout = options.timeout ?? Defaults.CONNECT_TIMEOUT;
    const now = this.resolved.clock();
    this.stateValue = 'connecting';
    const { attempt, promise } = startAttempt(host, port, now, timeout);
    this.attempt = attempt;
    // Connect retries and the deadline run on the fine tick.
    this.driver.hurry();
    // openSocket turns its own failures into the attempt's; it never rejects.
    void this.openSocket(attempt);
    return promise;
  }

  /** Smoothed RTT to the server in seconds, or undefined if not connected or not measured yet. */
  getRtt(): number | undefined {
    return this.stateValue === 'connected' ? this.connection?.rtt.smoothed : undefined;
  }

  /**
   * Sends to the server. Returns false when not connected (nothing sent), and false when a reliable message
   * was sent but the reliable backlog is at `highWaterMark` (`needsDrain` tells the two apart): hold further
   * reliable messages until `onDrain`. An unreliable message sent returns true. Throws PayloadTooLargeError
   * on a body larger than the connection carries (v1: 1200 bytes; native: `native.maxMessageSize`),
   * SendQueueFullError at `maxQueued`.
   */
  send<K extends keyof Out & string>(
    type: K,
    payload: Payload<Out, K>,
    channel: Channel = Channel.UNRELIABLE,
  ): boolean {
    const ch = checkChannel(channel);
    const link = this.connection;
    if (this.stateValue !== 'connected' || !link || !this.drain) {
      encodeBody(this.resolved.serializer, type, payload); // still reports an unserializable payload
      return false;
    }
    link.sendBody(encodeBody(link.serializer, type, payload, link.maxBody(ch)), ch);
    return this.pressure.afterSend(this.drain, ch);
  }

  /** Ends the connection (or attempt), telling the server; does not fire our own `onDisconnect`. */
  disconnect(): void {
    if (this.attempt) this.fail('connect cancelled by disconnect()', 'cancelled', false);
    const connection = this.connection;
    this.connection = undefined;
    connection?.disconnect('disconnected by this client');
    this.teardown();
  }

  /** Closes the socket for good. */
  async close(): Promise<void> {
    if (this.stateValue === 'closed') return;
    this.disconnect();
    this.driver.stop();
    this.stateValue = 'closed';
  }

  /** Manual drive: handle what arrived, retry connecting, heartbeats, retransmits, timeouts. */
  update(_dt = 0): void {
    this.driver.update();
  }

  /** RTT, jitter, loss estimate and traffic rates of the current connection, or undefined when not connected. */
  stats(): ConnectionStats | undefined {
    return this.connection?.stats();
  }

  /** Traffic counters of the current connection, if any. */
  get connectionCounters(): TrafficCounters | undefined {
    return this.connection?.counters;
  }

  private async openSocket(attempt: Attempt): Promise<void> {
    let socket: DatagramSocket | undefined;
    try {
      const r = this.resolved;
      socket = await r.openSocket({ port: 0, host: '0.0.0.0', recvBufferSize: r.recvBufferSize });
      if (this.attempt !== attempt) {
        void socket.close();
        return;
      }
      this.recvBufferSize = socket.recvBufferSize;
      // Until the server's address is known, handleDatagram drops whatever arrives.
      socket.listen({
        message: (data, from) => this.driver.onDatagram(data, from),
        sendError: () => (this.counters.sendErrors += 1),
        error: (err) => {
          if (this.attempt) this.attempt.lastSocketError = err.code ?? err.message;
        },
      });
      // Connected, the socket sends without an address lookup and only hears the server.
      const remote = await socket.connect(attempt.port, attempt.host);
      if (this.attempt !== attempt) {
        void socket.close();
        return;
      }
      this.socket = socket;
      this.server = { address: remote.address, port: remote.port };
      this.sendRequest(this.resolved.clock());
    } catch (error) {
      if (socket && this.socket !== socket) void socket.close();
      if (this.attempt !== attempt) return;
      const failure = socketFailure(attempt, error);
      this.fail(failure.reason, failure.kind, true, error);
    }
  }

  private sendRequest(now: number): void {
    const attempt = this.attempt;
    if (!attempt || !this.socket) return;
    this.transmit(connectRequestFor(attempt, this.resolved, this.recvBufferSize, now));
  }

  /** Checks v1 datagrams; it holds the fields of the last one read. */
  private readonly v1Datagrams = new V1DatagramReader('client');

  private handleDatagram(data: Uint8Array, from: DatagramSource): void {
    this.counters.countReceived(data.length);
    if (!this.server || from.address !== this.server.address || from.port !== this.server.port) {
      return this.counters.drop(DropReason.UNKNOWN_SOURCE);
    }
    const connection = this.connection;
    if (isNativeDatagram(data)) {
      if (data.length > Native.MAX_MTU) return this.counters.drop(DropReason.TOO_LONG);
      if (!(connection instanceof NativeConnection)) return this.counters.drop(DropReason.WRONG_PROTOCOL);
      return connection.receiveDatagram(data);
    }
    const datagram = this.v1Datagrams.read(data, connection?.token, this.resolved.serializer);
    switch (datagram.kind) {
      case V1Kind.DROP:
        return this.counters.drop(datagram.reason);
      case V1Kind.HANDSHAKE:
        return this.handshake(datagram.token, datagram.message.type, datagram.message.payload);
      case V1Kind.MESSAGE:
        // Anything with our token (a pong, a ping, a repeated accept) means the server holds a peer for us now.
        if (this.attempt?.accepted) this.established();
        if (datagram.message.type === ReservedType.CONNECT_ACCEPTED) return; // a repeat of the accept we already took
        if (connection instanceof Connection) connection.receive(datagram, datagram.message, data.length);
        else this.counters.drop(DropReason.WRONG_PROTOCOL);
    }
  }

  /** The server's answers while connecting: a native challenge (token 0) or the accept (its token). */
  private handshake(token: bigint, type: string, payload: Record<string, unknown>): void {
    const attempt = this.attempt;
    if (type === ReservedType.NATIVE_CHALLENGE && token === 0n && attempt && this.resolved.native) {
      const challenge = takeChallenge(attempt, payload);
      if (challenge === 'bad') return this.counters.drop(DropReason.BAD_BODY);
      // The same cookie again (a repeat): the request that echoes it is already on its way.
      if (challenge === 'new') this.sendRequest(this.resolved.clock());
      return;
    }
    if (type === ReservedType.CONNECT_ACCEPTED && token !== 0n && attempt) return this.accepted(token, payload);
    this.counters.drop(DropReason.BAD_TOKEN);
  }

  private accepted(token: bigint, payload: Record<string, unknown>): void {
    const attempt = this.attempt!;
    const now = this.resolved.clock();
    this.peerIdValue = typeof payload.peer_id === 'number' ? payload.peer_id : undefined;
    const r = this.resolved;
    const agreement = readAccept(attempt, r, payload);
    if ('failure' in agreement) return this.fail(agreement.failure, 'incompatible');
    const { agreed, keys } = agreement;
    const connection: Link = createLink(r, agreed, {
      token,
      transmit: (datagram) => this.transmit(datagram),
      onMessage: (type, p) => this.messageListeners.emit(type, p as never),
      onClosed: (reason, kind) => {
        if (this.connection !== connection) return; // our own disconnect(): not reported
        if (this.attempt) return this.fail(`the server ended the connection while connecting: ${reason}`, 'dropped');
        this.connection = undefined;
        this.teardown();
        this.disconnectListeners.emit(reason, kind);
      },
      requestFlush: () => this.driver.requestPromptFlush(),
      requestWake: (at) => this.driver.wakeAt(at),
      peerRecvWindow: agreed?.recvWindow,
      keys,
      // The server pings every peer; our pings ride our pongs, so its heartbeats cost it one datagram a second.
      followPeerPings: true,
    });
    // One request answered (after the challenge, if any): the handshake is a clean RTT sample.
    if (attempt.requests === (attempt.cookie ? 2 : 1)) connection.addRttSample(now - attempt.lastRequest);
    this.connection = connection;
    this.drain = { needsDrain: false, connection };
    if (agreed) return this.established();
    // A v1 server of ours keeps nothing for us until a datagram echoes the accept's token from this address:
    // speak at once (the first ping), and count as connected when the server answers with the token.
    attempt.accepted = true;
    connection.service(r.clock());
  }

  /** The handshake is over: the server holds a peer for us. */
  private established(): void {
    const attempt = this.attempt!;
    this.attempt = undefined;
    this.stateValue = 'connected';
    attempt.resolve();
    this.connectListeners.emit();
  }

  private service(now: number): void {
    const attempt = this.attempt;
    if (attempt) {
      if (now >= attempt.deadline) this.fail(timedOut(attempt), 'timed-out');
      else if (attempt.accepted) {
        this.connection?.service(now); // heartbeats: the next ping proves us again if the first was lost
      } else if (this.socket && now - attempt.lastRequest >= Defaults.CONNECT_RETRY_INTERVAL) {
        this.sendRequest(now);
      }
      return;
    }
    this.connection?.service(now);
  }

  private fail(reason: string, kind: ConnectFailure, notify = true, cause?: unknown): void {
    const attempt = this.attempt;
    if (!attempt) return;
    this.attempt = undefined;
    // Accepted but never answered: tell the server, which may hold a peer for us by now.
    const connection = this.connection;
    this.connection = undefined;
    connection?.disconnect(reason);
    this.teardown();
    attempt.reject(new ConnectError(reason, kind, cause));
    if (notify) this.failListeners.emit(reason, kind);
  }

  private teardown(): void {
    if (this.stateValue !== 'closed') this.stateValue = 'idle';
    this.peerIdValue = undefined;
    this.server = undefined;
    this.drain = undefined;
    const socket = this.socket;
    this.socket = undefined;
    if (socket) void socket.close();
  }

  /** Sends to the server; true when the socket took the bytes at once (see DatagramSocket.send). */
  private transmit(datagram: Uint8Array): boolean {
    const socket = this.socket;
    if (!socket) return false;
    this.counters.countSent(datagram.length);
    return socket.send(datagram);
  }
}
