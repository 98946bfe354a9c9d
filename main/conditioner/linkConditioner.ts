import { deriveSeed, SeededRandom } from '../../shared/random/prng';
import type { Scheduler, TimerHandle } from '../base/scheduler';
import type { DatagramSocket, DatagramSource } from '../net/index';
import { ClientMappings, type ClientMapping, type ClientMappingInfo } from './relay/clientMappings';
import {
  resolveConditionerOptions,
  type LinkConditionerOptions,
  type ResolvedConditionerOptions,
} from './conditionerOptions';
import type { Conditioner, ConditionerStats } from './conditioner';
import { resolveProfileChange, type LinkDirection } from './model/linkDirection';
import { LinkPipe } from './relay/linkPipe';
import type { LinkProfile } from './linkProfile';
import { isLoopbackAddress } from './relay/loopback';
import { CONNECTED, SendBatch } from './relay/sendBatch';

export type { LinkConditionerOptions } from './conditionerOptions';
export type { Conditioner, ConditionerStats } from './conditioner';
export type { LinkDirection } from './model/linkDirection';

/** The largest UDP payload IPv4 can carry; a bigger datagram from an IPv6 side cannot cross to an IPv4 one. */
const MAX_IPV4_PAYLOAD = 65_507;
/** Socket buffers for the relay's bursts. */
const BUFFER_BYTES = 1 << 20;

interface Routed {
  mapping: ClientMapping;
  data: Uint8Array;
}

/**
 * A UDP relay on loopback that impairs traffic between clients and one target server, per direction, on the
 * caller's thread (exact under a manual clock); `WorkerConditioner` runs this same relay on a thread of its own.
 * Its sockets come from `openSocket` (UDP, or a memory network in tests). A socket's received bytes are its own once
 * the handler returns, and the relay holds each datagram (a send batch, a latency): it forwards its own copy.
 */
export class LinkConditioner implements Conditioner {
  private readonly pipes: Record<LinkDirection, LinkPipe<Routed>>;
  private readonly mappings: ClientMappings;
  private sweepTimer: TimerHandle | undefined;
  private strays = 0;
  private errors = 0;
  private readonly countError = (): void => void this.errors++;
  private readonly outgoing = new SendBatch(this.countError);
  private closing: Promise<void> | undefined;

  /** The server datagrams go to (as an IP literal). */
  readonly target: { readonly host: string; readonly port: number };
  /** The seed in use (log it to repeat a run). */
  readonly seed: number;
  private readonly scheduler: Scheduler;
  /** Largest datagram each direction's outgoing socket can send (checked, since a failed send reports nothing). */
  private readonly upstreamLimit: number;
  private readonly downstreamLimit: number;

  private constructor(
    private readonly listenSocket: DatagramSocket,
    private readonly options: ResolvedConditionerOptions,
  ) {
    this.target = { host: options.target.address, port: options.target.port };
    this.seed = options.seed;
    this.scheduler = options.scheduler;
    this.upstreamLimit = options.target.family === 'IPv4' ? MAX_IPV4_PAYLOAD : Infinity;
    this.downstreamLimit = options.listen.family === 'IPv4' ? MAX_IPV4_PAYLOAD : Infinity;
    const pipe = (direction: LinkDirection, stream: number, deliver: (r: Routed) => boolean) =>
      new LinkPipe<Routed>({
        profile: options[direction],
        rng: new SeededRandom(deriveSeed(options.seed, stream)),
        scheduler: options.scheduler,
        deliver,
        maxQueued: options.maxQueued,
      });
    this.pipes = {
      upstream: pipe('upstream', 1, (r) => this.sendUp(r.mapping, r.data)),
      downstream: pipe('downstream', 2, (r) => this.sendDown(r.mapping, r.data)),
    };
    const target = options.target;
    // Loopback targets: bind to loopback so the relay is never reachable from the network.
    const host = isLoopbackAddress(target) ? (target.family === 'IPv6' ? '::1' : '127.0.0.1') : undefined;
    this.mappings = new ClientMappings({
      maxMappings: options.maxMappings,
      target,
      open: () => openRelaySocket(options.openSocket, target.family, 0, host),
      reply: (mapping, data, from) => this.fromTarget(mapping, data, from),
      ready: (mapping) => this.sendWaiting(mapping),
      error: this.countError,
    });
    listenSocket.listen({
      message: (data, from) => this.fromClient(data, from),
      sendError: this.countError,
      error: this.countError,
    });
    this.armSweep();
  }

  /** Validates the options (throws a clear error naming the bad one), binds the listening socket, starts relaying. */
  static async start(options: LinkConditionerOptions): Promise<LinkConditioner> {
    const resolved = resolveConditionerOptions(options);
    const { listen, listenPort } = resolved;
    const socket = await openRelaySocket(resolved.openSocket, listen.family, listenPort, listen.address);
    return new LinkConditioner(socket, resolved);
  }

  /** Where clients should send (host and the bound port). */
  get address(): { host: string; port: number; family: 'IPv4' | 'IPv6' } {
    const socket = this.listenSocket;
    return { host: socket.address, port: socket.port, family: this.options.listen.family };
  }

  /** The settings currently applied to one direction. */
  profile(direction: LinkDirection): LinkProfile {
    return this.pipes[direction].profile;
  }

  /** Changes settings at run time (validated; throws LinkProfileError and changes nothing if any value is bad). */
  setProfile(direction: LinkDirection | 'both', patch: Partial<LinkProfile>): void {
    const next = resolveProfileChange(direction, patch, (d) => this.pipes[d].profile);
    for (const [d, profile] of next) this.pipes[d].setProfile(profile);
  }

  /** A snapshot of every counter. */
  stats(): ConditionerStats {
    return {
      upstream: this.pipes.upstream.stats(),
      downstream: this.pipes.downstream.stats(),
      mappings: this.mappings.size,
      strays: this.strays,
      errors: this.errors,
    };
  }

  /** The client mappings (which upstream port stands for which client). */
  clients(): ClientMappingInfo[] {
    return this.mappings.list(this.scheduler.now());
  }

  /** Stops relaying, drops anything in flight and closes every socket. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.pipes.upstream.close();
      this.pipes.downstream.close();
      this.outgoing.close();
      if (this.sweepTimer !== undefined) this.scheduler.clearTimer(this.sweepTimer);
      this.sweepTimer = undefined;
      await Promise.all([this.mappings.closeAll(), this.listenSocket.close()]);
    })();
    return this.closing;
  }

  private fromClient(datagram: Uint8Array, from: DatagramSource): void {
    const mapping = this.mappings.acquire(from.address, from.port, this.scheduler.now());
    const pipe = this.pipes.upstream;
    const size = datagram.length;
    if (mapping === undefined) pipe.reject(size);
    // Impairments off: straight out, no queue entry or wrapper object per datagram; the copy is the relay's to hold.
    else if (pipe.passing) pipe.passed(size, this.sendUp(mapping, Buffer.from(datagram)));
    else pipe.submit({ mapping, data: Buffer.from(datagram) }, size);
  }

  private fromTarget(mapping: ClientMapping, datagram: Uint8Array, from: DatagramSource): void {
    if (from.port !== this.target.port || from.address !== this.target.host) {
      this.strays++;
      return;
    }
    const size = datagram.length;
    if (mapping.closed) {
      this.pipes.downstream.reject(size);
      return;
    }
    mapping.lastActive = this.scheduler.now();
    const pipe = this.pipes.downstream;
    if (pipe.passing) pipe.passed(size, this.sendDown(mapping, Buffer.from(datagram)));
    else pipe.submit({ mapping, data: Buffer.from(datagram) }, size);
  }

  /** False (counted unroutable) when it cannot go out, or must wait for the mapping's socket and too many already do. */
  private sendUp(mapping: ClientMapping, data: Uint8Array): boolean {
    if (mapping.closed || data.length > this.upstreamLimit) return false;
    const socket = mapping.socket;
    if (socket === undefined) return this.mappings.hold(mapping, data);
    this.outgoing.send(socket, data, mapping.connected ? CONNECTED : this.target.port, this.target.host);
    return true;
  }

  private sendDown(mapping: ClientMapping, data: Uint8Array): boolean {
    if (mapping.closed || data.length > this.downstreamLimit) return false;
    this.outgoing.send(this.listenSocket, data, mapping.clientPort, mapping.clientAddress);
    return true;
  }

  /** Sends what arrived for a mapping while its socket opened, in order, ahead of anything later. */
  private sendWaiting(mapping: ClientMapping): void {
    const socket = mapping.socket as DatagramSocket;
    const port = mapping.connected ? CONNECTED : this.target.port;
    for (const data of mapping.waiting) this.outgoing.send(socket, data, port, this.target.host);
    mapping.waiting.length = 0;
  }

  private armSweep(): void {
    const every = Math.max(100, Math.min(this.options.idleTimeoutMs / 4, 5_000));
    this.sweepTimer = this.scheduler.setTimer(() => {
      this.mappings.sweep(this.scheduler.now(), this.options.idleTimeoutMs);
      this.armSweep();
    }, every);
  }
}

/** Opens one of the relay's sockets: of the family of the addresses it talks to, with buffers for bursts. */
function openRelaySocket(
  open: ResolvedConditionerOptions['openSocket'],
  family: 'IPv4' | 'IPv6',
  port: number,
  host: string | undefined,
): Promise<DatagramSocket> {
  const v6 = family === 'IPv6';
  return open({
    port,
    host: host ?? (v6 ? '::' : '0.0.0.0'),
    family: v6 ? 6 : 4,
    recvBufferSize: BUFFER_BYTES,
    sendBufferSize: BUFFER_BYTES,
    // The hot path: no completion callback per datagram. A lost send is a lost datagram, as on the link it imitates.
    reportSendErrors: false,
  });
}
