import type { Logger } from '../../../base/logger';
import type { NetworkInterfacesLike } from '../../../base/networkOptions';
import type { Scheduler } from '../../../base/scheduler';
import type { DiscoveryPortRegistry } from '../discoveryPortRegistry';
import { DISCOVERY } from '../advert/discoveryProtocol';
import { isValidInstanceId } from '../advert/discoveryReply';
import type { RateLimit } from '../../../base/rateLimiter';
import type { SendFailure } from '../sendDatagram';

/** LAN Party's optional fields, read on every reply so they stay live. */
export interface LanDiscoveryExtraInfo {
  readonly capacity?: number;
  readonly passwordProtected?: boolean;
  readonly gameName?: string;
  /** A round is being played. */
  readonly inRound?: boolean;
  readonly appVersion?: string;
  readonly lobbyProtocol?: number;
  /** The host player's name, shown beside the room's. */
  readonly hostName?: string;
}

/** Options for `startLanDiscovery`. */
export interface LanDiscoveryOptions {
  /** Shown in server lists. */
  readonly name: string;
  /** The game server's UDP port, advertised in replies. */
  readonly gamePort: number;
  /** Live player count, called for every reply. */
  readonly getPlayerCount: () => number;
  /** Live capacity / password flag / game name, called for every rich reply. */
  readonly getExtraInfo?: () => LanDiscoveryExtraInfo;
  /** Discovery port; default 9998. 0 binds an ephemeral port (tests), read it back from the handle. */
  readonly port?: number;
  /** Default 0.0.0.0: Linux delivers broadcasts only to sockets bound to the wildcard address. */
  readonly bindAddress?: string;
  /** Default: random. */
  readonly instanceId?: string;
  /**
   * Periodic announcements (rich replies broadcast to the discovery port) that every instance on the LAN hears,
   * even behind a Linux firewall that drops unicast replies. Off unless given; `targets` defaults to
   * `defaultBroadcastTargets` of this machine's interfaces.
   */
  readonly announce?: { readonly intervalMs: number; readonly targets?: readonly string[] };
  /** Reply budget per source address (default burst 5, 2/s) and in total (default burst 50, 50/s). */
  readonly rateLimit?: { readonly perSource?: RateLimit; readonly total?: RateLimit };
  /** Which sources get answers; default loopback and directly connected subnets. */
  readonly isAllowedSource?: (address: string) => boolean;
  readonly networkInterfaces?: () => NetworkInterfacesLike;
  readonly registry?: DiscoveryPortRegistry;
  /** Clock and timers; default real time with unref'd timers. */
  readonly scheduler?: Scheduler;
  /** Where survivable trouble (send errors, unreadable server info) is reported; default the console. */
  readonly logger?: Logger;
}

/** Counters for what the responder did and refused. */
export interface LanDiscoveryStats {
  requests: number;
  replies: number;
  announcements: number;
  /** Replies and announcements from other servers heard on the port (not requests, never answered). */
  heardAdverts: number;
  /** Oversized, non-UTF-8, non-JSON or otherwise malformed datagrams. */
  ignoredMalformed: number;
  ignoredForeignSource: number;
  ignoredRateLimited: number;
  infoErrors: number;
  sendErrors: number;
}

/** A running responder. */
export interface LanDiscoveryHandle {
  /** The discovery port actually bound. */
  readonly port: number;
  readonly instanceId: string;
  /** Renames the advertised server. */
  setName(name: string): void;
  /** Sends one announcement round now; resolves with the destinations that failed. */
  announceNow(): Promise<SendFailure[]>;
  stats(): Readonly<LanDiscoveryStats>;
  /** Stops answering and announcing, and releases the port. Idempotent. */
  close(): Promise<void>;
}

/** Whether a value is a non-negative safe integer (player count, capacity). */
export function isValidCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Throws a TypeError/RangeError naming the first unusable option. */
export function validateLanDiscoveryOptions(options: LanDiscoveryOptions): void {
  if (typeof options.name !== 'string') throw new TypeError('LAN discovery needs a name string');
  if (!Number.isInteger(options.gamePort) || options.gamePort < 1 || options.gamePort > 65535) {
    throw new RangeError(`gamePort must be an integer from 1 to 65535, got ${options.gamePort}`);
  }
  if (typeof options.getPlayerCount !== 'function') throw new TypeError('getPlayerCount must be a function');
  const port = options.port ?? DISCOVERY.DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`invalid discovery port ${port}`);
  if (options.instanceId !== undefined && !isValidInstanceId(options.instanceId)) {
    throw new TypeError('instanceId must be 1-64 characters of A-Z, a-z, 0-9, _ or -');
  }
  if (options.announce && !(options.announce.intervalMs >= 100)) {
    throw new RangeError('announce.intervalMs must be at least 100 ms');
  }
}
