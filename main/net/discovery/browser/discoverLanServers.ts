import type { Logger } from '../../../base/logger';
import type { NetworkInterfacesLike } from '../../../base/networkOptions';
import { systemScheduler, type Scheduler } from '../../../base/scheduler';
import type { OpenDatagramSocket } from '../../endpoint/datagramSocket';
import type { ServerInfo } from './browsedServerTable';
import { DISCOVERY } from '../advert/discoveryProtocol';
import type { SendFailure } from '../sendDatagram';
import { createLanBrowser } from './lanBrowser';

/** Options for {@link discoverLanServers}. */
export interface DiscoverLanServersOptions {
  /** Discovery port the servers listen on; default 9998. */
  readonly port?: number;
  /** How long to collect replies, in milliseconds; default 1000 (the reference's 1 s). */
  readonly timeoutMs?: number;
  /** Destinations; default every interface's directed broadcast plus 255.255.255.255. */
  readonly targets?: readonly string[];
  /** Query rounds, spread over the first half of the timeout, against packet loss; default 2. */
  readonly attempts?: number;
  readonly bindAddress?: string;
  /** Our own id, sent in queries. */
  readonly instanceId?: string;
  /** Servers to leave out, e.g. the one this process hosts. */
  readonly ignoreInstanceIds?: readonly string[];
  readonly networkInterfaces?: () => NetworkInterfacesLike;
  /** Which reply sources are believed; default loopback, connected subnets and explicit targets. */
  readonly isAllowedSource?: (address: string) => boolean;
  /** Told about each destination that could not be sent to (EACCES, ENETUNREACH, EHOSTUNREACH…). */
  readonly onSendError?: (failure: SendFailure) => void;
  /** Where survivable trouble (send errors, socket errors) is reported; default the console. */
  readonly logger?: Logger;
  /** The socket seam; default a UDP socket. */
  readonly openSocket?: OpenDatagramSocket;
  readonly platform?: NodeJS.Platform;
  /** Clock and timers of the rounds and the collection window; default the real ones. */
  readonly scheduler?: Scheduler;
}

/** The browser never lets a server go within one search: the first address that answered stays. */
const NEVER_GONE = Number.POSITIVE_INFINITY;
/** The browser's shortest round interval. */
const MIN_SPACING_MS = 50;

/**
 * Broadcasts a discovery query and collects replies for `timeoutMs`, like the reference's discover_lan_servers,
 * from LAN Party and reference servers alike: a {@link createLanBrowser} that sends `attempts` rounds and is
 * read once. A server heard on several interfaces is listed once (by instance id), the first address that
 * answered winning; each entry reflects the server's latest reply.
 */
export async function discoverLanServers(options: DiscoverLanServersOptions = {}): Promise<ServerInfo[]> {
  const port = options.port ?? DISCOVERY.DEFAULT_PORT;
  const timeoutMs = options.timeoutMs ?? 1000;
  const attempts = Math.max(1, Math.floor(options.attempts ?? 2));
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError(`invalid discovery port ${port}`);
  if (!(timeoutMs >= 0)) throw new RangeError(`invalid timeoutMs ${timeoutMs}`);
  const scheduler = options.scheduler ?? systemScheduler;
  const { timeoutMs: _window, attempts: _rounds, onSendError, ...shared } = options;
  const browser = createLanBrowser({
    ...shared,
    port,
    scheduler,
    rounds: attempts,
    intervalMs: Math.max(MIN_SPACING_MS, attempts > 1 ? timeoutMs / 2 / (attempts - 1) : 0),
    goneAfterMs: NEVER_GONE,
    listenForAnnouncements: false,
  });
  if (onSendError) browser.on('sendError', onSendError);
  await browser.start();
  await new Promise<void>((resolve) => scheduler.setTimer(resolve, timeoutMs));
  const found = browser.servers().map(({ pingMs: _ping, firstSeenAt: _first, lastSeenAt: _last, ...info }) => info);
  await browser.stop();
  return found;
}
