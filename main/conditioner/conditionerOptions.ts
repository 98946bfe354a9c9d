import { systemScheduler, type Scheduler } from '../base/scheduler';
import { openUdpDatagramSocket, type OpenDatagramSocket } from '../net/index';
import { resolveLinkProfile, type LinkProfile } from './linkProfile';
import { isLoopbackAddress, parseHostLiteral, type HostLiteral } from './relay/loopback';

/** How to start a conditioner. Only `target` is required. */
export interface LinkConditionerOptions {
  /** Where clients send; default '127.0.0.1'. Must be loopback unless allowNonLoopback. */
  listenHost?: string;
  /** Default 0 (an ephemeral port; read it from `address`). */
  listenPort?: number;
  /** The one server datagrams are relayed to (an IP literal or 'localhost'). */
  target: { host: string; port: number };
  upstream?: Partial<LinkProfile>;
  downstream?: Partial<LinkProfile>;
  /** Seed for every random decision; default 1, so runs repeat unless asked otherwise. */
  seed?: number;
  /** Permit a non-loopback target or listen address (off by default: the lab stays on this machine). */
  allowNonLoopback?: boolean;
  /** Most distinct clients at once (default 64); datagrams from further clients are dropped as 'unroutable'. */
  maxMappings?: number;
  /** A client mapping unused for this long in both directions is closed (default 30 000 ms). */
  idleTimeoutMs?: number;
  /** Most datagrams in flight per direction (default 100 000); more are dropped as 'overflow'. */
  maxQueued?: number;
  /** Clock and timers; default the real ones. */
  scheduler?: Scheduler;
  /** Opens the relay's sockets; default UDP (a memory network's in tests). */
  openSocket?: OpenDatagramSocket;
}

/** Options after validation, with every default filled in and hosts parsed to IP literals. */
export interface ResolvedConditionerOptions {
  listen: HostLiteral;
  listenPort: number;
  target: HostLiteral & { port: number };
  upstream: LinkProfile;
  downstream: LinkProfile;
  seed: number;
  maxMappings: number;
  idleTimeoutMs: number;
  maxQueued: number;
  scheduler: Scheduler;
  openSocket: OpenDatagramSocket;
}

/** Validates start options; throws a TypeError/RangeError (or LinkProfileError) naming the bad option. */
export function resolveConditionerOptions(options: LinkConditionerOptions): ResolvedConditionerOptions {
  const listen = parseHostLiteral(options.listenHost ?? '127.0.0.1', 'listenHost');
  const target = parseHostLiteral(options.target.host, 'target.host');
  const listenPort = options.listenPort ?? 0;
  checkPort(options.target.port, 'target.port', 1);
  checkPort(listenPort, 'listenPort', 0);
  if (options.allowNonLoopback !== true) {
    const hosts = [
      ['target', target],
      ['listenHost', listen],
    ] as const;
    for (const [what, host] of hosts) {
      if (!isLoopbackAddress(host)) {
        throw new RangeError(
          `${what} ${host.address} is not a loopback address; set allowNonLoopback to relay beyond this machine`,
        );
      }
    }
  }
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed)) throw new TypeError(`seed must be an integer, got ${String(seed)}`);
  return {
    listen,
    listenPort,
    target: { ...target, port: options.target.port },
    upstream: resolveLinkProfile(options.upstream ?? {}),
    downstream: resolveLinkProfile(options.downstream ?? {}),
    seed,
    maxMappings: positiveInt(options.maxMappings ?? 64, 'maxMappings'),
    idleTimeoutMs: positiveInt(options.idleTimeoutMs ?? 30_000, 'idleTimeoutMs'),
    maxQueued: positiveInt(options.maxQueued ?? 100_000, 'maxQueued'),
    scheduler: options.scheduler ?? systemScheduler,
    openSocket: options.openSocket ?? openUdpDatagramSocket,
  };
}

function checkPort(port: number, what: string, min: number): void {
  if (!Number.isInteger(port) || port < min || port > 65535) {
    throw new RangeError(`${what} must be an integer from ${min} to 65535, got ${String(port)}`);
  }
}

function positiveInt(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${what} must be a positive integer, got ${String(value)}`);
  }
  return value;
}
