import type { RemoteInfo, Socket } from 'node:dgram';
import { deriveSeed, SeededRandom } from '../../shared/random/prng';
import type { Scheduler, TimerHandle } from '../base/scheduler';
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
import { bindRelaySocket, createRelaySocket } from './relay/relaySocket';
import { CONNECTED, SendBatch } from './relay/sendBatch';

export type { LinkConditionerOptions } from './conditionerOptions';
export type { Conditioner, ConditionerStats } from './conditioner';
export type { LinkDirection } from './model/linkDirection';

/** The largest UDP payload IPv4 can carry; a bigger datagram from an IPv6 side cannot cross to an IPv4 one. */
const MAX_IPV4_PAYLOAD = 65_507;

interface Routed {
  mapping: ClientMapping;
  data: Buffer;
}

/**
 * A UDP relay on loopback that impairs traffic between clients and one target server, per direction, on the
 * caller's thread (exact under a manual clock); `WorkerConditioner` runs this same relay on a thread of its own.
 */
export class LinkConditioner implements Conditioner {
  private readonly pipes: Record<LinkDirection, LinkPipe<Routed>>;
  private readonly mappings: ClientMappings;
  private sweepTimer: TimerHandle | undefined;
  private strays = 0;
  private errors = 0;
  private readonly outgoing = new SendBatch(() => this.errors++);
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
    private readonly listenSocket: Socket,
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
    this.mappings = new ClientMappings(
      options.maxMappings,
      () => this.openMappingSocket(),
      (mapping, data, rinfo) => this.fromTarget(mapping, data, rinfo),
    );
    listenSocket.on('message', (data, rinfo) => this.fromClient(data, rinfo));
    listenSocket.on('error', () => this.errors++);
    this.armSweep();
  }

  /** Validates the options (throws a clear error naming the bad one), binds the listening socket, starts relaying. */
  static async start(options: LinkConditionerOptions): Promise<LinkConditioner> {
    const resolved = resolveConditionerOptions(options);
    const socket = createRelaySocket(resolved.listen.family);
    await bindRelaySocket(socket, resolved.listenPort, resolved.listen.address);
    return new LinkConditioner(socket, resolved);
  }

  /** Where clients should send (host and the bound port). */
  get address(): { host: string; port: number; family: 'IPv4' | 'IPv6' } {
    const a = this.listenSocket.address();
    return { host: a.address, port: a.port, family: a.family === 'IPv6' ? 'IPv6' : 'IPv4' };
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
      await Promise.all([
        this.mappings.closeAll(),
        new Promise<void>((resolve) => this.listenSocket.close(() => resolve())),
      ]);
    })();
    return this.closing;
  }

  private fromClient(data: Buffer, rinfo: RemoteInfo): void {
    const mapping = this.mappings.acquire(rinfo.address, rinfo.port, this.scheduler.now());
    const pipe = this.pipes.upstream;
    if (mapping === undefined) pipe.reject(data.length);
    // Impairments off: straight out, no queue entry or wrapper object per datagram.
    else if (pipe.passing) pipe.passed(data.length, this.sendUp(mapping, data));
    else pipe.submit({ mapping, data }, data.length);
  }

  private openMappingSocket(): Socket {
    const target = this.options.target;
    const socket = createRelaySocket(target.family);
    socket.on('error', () => this.errors++);
    // Loopback targets: bind to loopback so the relay is never reachable from the network.
    const loopback = target.family === 'IPv6' ? '::1' : '127.0.0.1';
    socket.bind(0, isLoopbackAddress(target) ? loopback : undefined);
    // Connected, a send names no address: the kernel reuses its route instead of looking one up per datagram, which
    // took the worker relay from 0.79× to ~0.9× raw dgram on the bench. A failed connect is an 'error' (counted);
    // the mapping then keeps sending with the address.
    socket.connect(target.port, target.address);
    return socket;
  }

  private fromTarget(mapping: ClientMapping, data: Buffer, rinfo: RemoteInfo): void {
    if (rinfo.port !== this.target.port || rinfo.address !== this.target.host) {
      this.strays++;
      return;
    }
    if (mapping.closed) {
      this.pipes.downstream.reject(data.length);
      return;
    }
    mapping.lastActive = this.scheduler.now();
    const pipe = this.pipes.downstream;
    if (pipe.passing) pipe.passed(data.length, this.sendDown(mapping, data));
    else pipe.submit({ mapping, data }, data.length);
  }

  private sendUp(mapping: ClientMapping, data: Buffer): boolean {
    const port = mapping.connected ? CONNECTED : this.target.port;
    return this.send(mapping.socket, data, port, this.target.host, mapping, this.upstreamLimit);
  }

  private sendDown(mapping: ClientMapping, data: Buffer): boolean {
    return this.send(this.listenSocket, data, mapping.clientPort, mapping.clientAddress, mapping, this.downstreamLimit);
  }

  /**
   * False (counted unroutable) when it cannot go out. Sent at the end of this event-loop phase, with the rest of the
   * burst (see SendBatch); a send that throws then counts as an error.
   */
  private send(
    socket: Socket,
    data: Buffer,
    port: number,
    host: string,
    mapping: ClientMapping,
    limit: number,
  ): boolean {
    if (mapping.closed || data.length > limit) return false;
    this.outgoing.send(socket, data, port, host);
    return true;
  }

  private armSweep(): void {
    const every = Math.max(100, Math.min(this.options.idleTimeoutMs / 4, 5_000));
    this.sweepTimer = this.scheduler.setTimer(() => {
      this.mappings.sweep(this.scheduler.now(), this.options.idleTimeoutMs);
      this.armSweep();
    }, every);
  }
}
