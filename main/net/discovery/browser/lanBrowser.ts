import { networkInterfaces } from 'node:os';
import { Listeners } from '../../../base/listeners';
import { consoleLogger, type Logger } from '../../../base/logger';
import type { NetworkInterfacesLike } from '../../../base/networkOptions';
import { backgroundScheduler, type Scheduler } from '../../../base/scheduler';
import type { DatagramSource, OpenDatagramSocket } from '../../endpoint/datagramSocket';
import {
  BrowsedServerTable,
  serverKey,
  toServerInfo,
  type BrowsedServer,
  type BrowsedServerChange,
} from './browsedServerTable';
import {
  defaultDiscoveryPortRegistry,
  type DiscoveryPortLease,
  type DiscoveryPortRegistry,
} from '../discoveryPortRegistry';
import { DISCOVERY } from '../advert/discoveryProtocol';
import { parseDiscoveryReply, randomInstanceId, type DiscoveryAdvert } from '../advert/discoveryReply';
import { buildDiscoveryQuery } from '../advert/discoveryRequest';
import { defaultBroadcastTargets } from '../interfaceTargets';
import { openLanQuerySocket, type LanQuerySocket } from './lanQuerySocket';
import type { SendFailure } from '../sendDatagram';
import { createReplySourceFilter } from '../sourceFilter';
import { UnicastTargetTracker, type UnicastTarget, type UnicastTargetStatus } from './unicastTargets';

/** Events of a {@link LanBrowser}. */
export type LanBrowserEvents = {
  appeared: (server: BrowsedServer) => void;
  changed: (server: BrowsedServer, previous: BrowsedServer) => void;
  gone: (server: BrowsedServer) => void;
  /** One destination of a query round could not be sent to; `hint` marks the macOS Local Network denial. */
  sendError: (failure: SendFailure) => void;
  /** A unicast target's status changed (it answered, went silent, or could not be sent to). */
  targets: (statuses: UnicastTargetStatus[]) => void;
};

/** One Listeners per event, each taking that event's arguments. */
type LanBrowserListeners = { readonly [E in keyof LanBrowserEvents]: Listeners<Parameters<LanBrowserEvents[E]>> };

/** Options for {@link createLanBrowser}. */
export interface LanBrowserOptions {
  /** Discovery port servers listen on; default 9998. */
  readonly port?: number;
  /** Time between query rounds; default 2000 ms. */
  readonly intervalMs?: number;
  /** Query rounds to send before falling quiet (a one-shot search); default: one every `intervalMs` until stopped. */
  readonly rounds?: number;
  /** A server unheard for this long is gone; default 3 rounds plus 500 ms. */
  readonly goneAfterMs?: number;
  /** Destinations, or a function read every round; default every interface's directed broadcast + 255.255.255.255. */
  readonly targets?: readonly string[] | (() => readonly string[]);
  /** Servers asked directly every round, each on its own port; read every round. Replies from them are believed. */
  readonly unicastTargets?: () => readonly UnicastTarget[];
  /** Also listen on the discovery port (shared with a local responder) for announcements; default true. */
  readonly listenForAnnouncements?: boolean;
  readonly bindAddress?: string;
  readonly instanceId?: string;
  /** Servers to leave out, e.g. the one this process hosts. */
  readonly ignoreInstanceIds?: readonly string[];
  readonly isAllowedSource?: (address: string) => boolean;
  readonly networkInterfaces?: () => NetworkInterfacesLike;
  readonly registry?: DiscoveryPortRegistry;
  /** Clock and timers; default real time with unref'd timers. */
  readonly scheduler?: Scheduler;
  /** Where survivable trouble (send errors, a listener that threw) is reported; default the console. */
  readonly logger?: Logger;
  /** The socket seam the query socket opens through; default a UDP socket. */
  readonly openSocket?: OpenDatagramSocket;
  readonly platform?: NodeJS.Platform;
}

/** A continuously refreshed list of LAN servers for the lobby screen. */
export interface LanBrowser {
  /** Opens sockets and sends the first round; later rounds follow every `intervalMs`. */
  start(): Promise<void>;
  /** Closes sockets and forgets the list (no 'gone' events). Idempotent. */
  stop(): Promise<void>;
  /** Expires silent servers, then sends a query round now. */
  refresh(): Promise<void>;
  /** Current servers, sorted by name. */
  servers(): BrowsedServer[];
  /** How each unicast target answers, in the order the option lists them. */
  unicastStatus(): UnicastTargetStatus[];
  /** Adds a listener (one that throws is logged, the rest still run); returns its remover. Unknown events throw. */
  on<E extends keyof LanBrowserEvents>(event: E, listener: LanBrowserEvents[E]): () => void;
  readonly running: boolean;
}

/** How many recent rounds remember their send time, to turn an echoed nonce into a ping. */
const REMEMBERED_ROUNDS = 8;

/** Creates a browser; nothing is sent until {@link LanBrowser.start}. */
export function createLanBrowser(options: LanBrowserOptions = {}): LanBrowser {
  const port = options.port ?? DISCOVERY.DEFAULT_PORT;
  const intervalMs = options.intervalMs ?? 2000;
  const goneAfterMs = options.goneAfterMs ?? intervalMs * 3 + 500;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError(`invalid discovery port ${port}`);
  if (!(intervalMs >= 50)) throw new RangeError('intervalMs must be at least 50');
  if (!(goneAfterMs > intervalMs)) throw new RangeError('goneAfterMs must be longer than intervalMs');
  const scheduler = options.scheduler ?? backgroundScheduler;
  const logger = options.logger ?? consoleLogger('lan-discovery');
  const readInterfaces = options.networkInterfaces ?? networkInterfaces;
  const registry = options.registry ?? defaultDiscoveryPortRegistry;
  const instanceId = options.instanceId ?? randomInstanceId();
  const ignored = new Set(options.ignoreInstanceIds ?? []);
  const reportThrown = (event: keyof LanBrowserEvents) => (error: unknown) =>
    logger.warn(`listener for '${event}' threw`, { error: String(error) });
  const listeners: LanBrowserListeners = {
    appeared: new Listeners(reportThrown('appeared')),
    changed: new Listeners(reportThrown('changed')),
    gone: new Listeners(reportThrown('gone')),
    sendError: new Listeners(reportThrown('sendError')),
    targets: new Listeners(reportThrown('targets')),
  };
  const table = new BrowsedServerTable(goneAfterMs);
  const currentTargets = (): readonly string[] => {
    const { targets } = options;
    if (typeof targets === 'function') return targets();
    return targets ?? defaultBroadcastTargets(readInterfaces());
  };
  const explicitTargets = typeof options.targets === 'function' ? options.targets() : (options.targets ?? []);
  const unicastTargets = (): readonly UnicastTarget[] => options.unicastTargets?.() ?? [];
  const tracker = new UnicastTargetTracker();
  const baseSourceFilter =
    options.isAllowedSource ?? createReplySourceFilter(explicitTargets, () => scheduler.now(), readInterfaces);
  // A server the player added by address may sit beyond any connected subnet (a VPN peer): its replies count.
  const isAllowedSource = (address: string): boolean =>
    unicastTargets().some((target) => target.host === address) || baseSourceFilter(address);
  let lastStatuses = '[]';
  const publishTargets = (): void => {
    const statuses = tracker.statuses(unicastTargets());
    const text = JSON.stringify(statuses);
    if (text === lastStatuses) return;
    lastStatuses = text;
    listeners.targets.emit(statuses);
  };

  let querySocket: LanQuerySocket | undefined;
  let lease: DiscoveryPortLease | undefined;
  let timer: unknown;
  let running = false;
  let nonce = 0;
  let roundsSent = 0;
  let lastRoundAt: number | undefined;
  const roundSentAt = new Map<number, number>();

  const publish = (change: BrowsedServerChange | undefined): void => {
    if (!change) return;
    if (change.kind === 'changed') listeners.changed.emit(change.server, change.previous);
    else listeners[change.kind].emit(change.server);
  };

  const heard = (advert: DiscoveryAdvert, from: DatagramSource, viaQuery: boolean): void => {
    if (!running || (advert.instanceId !== undefined && ignored.has(advert.instanceId))) return;
    const now = scheduler.now();
    let pingMs: number | undefined;
    if (viaQuery) {
      const sentAt = advert.nonce !== undefined ? roundSentAt.get(advert.nonce) : lastRoundAt;
      if (sentAt !== undefined) pingMs = Math.max(0, Math.round(now - sentAt));
    }
    const info = toServerInfo(advert, from.address);
    publish(table.observe(info, now, pingMs));
    if (viaQuery && tracker.heard(from.address, from.port, serverKey(info))) publishTargets();
  };

  const refresh = async (): Promise<void> => {
    if (!running || !querySocket) return;
    for (const change of table.sweep(scheduler.now())) publish(change);
    if (options.rounds !== undefined && roundsSent >= options.rounds) return;
    roundsSent += 1;
    if (roundsSent === options.rounds && timer !== undefined) scheduler.clearTimer(timer);
    nonce = (nonce + 1) >>> 0;
    const sentAt = scheduler.now();
    lastRoundAt = sentAt;
    roundSentAt.set(nonce, sentAt);
    for (const old of roundSentAt.keys()) {
      if (roundSentAt.size <= REMEMBERED_ROUNDS) break;
      roundSentAt.delete(old);
    }
    const query = buildDiscoveryQuery({ instanceId, nonce });
    const unicast = unicastTargets();
    const sends = [querySocket.sendRound(query, port, currentTargets())];
    for (const target of unicast) sends.push(querySocket.sendRound(query, target.port, [target.host]));
    const failures = (await Promise.all(sends)).flat();
    tracker.roundSent(unicast, failures);
    publishTargets();
    for (const failure of failures) listeners.sendError.emit(failure);
  };

  const listenForAnnouncements = async (): Promise<void> => {
    try {
      lease = await registry.acquire(port, options.bindAddress ?? '0.0.0.0');
    } catch (error) {
      // Queries still work without the shared port; announcements are a bonus.
      logger.warn('LAN browser cannot listen for announcements', { error: String(error) });
      return;
    }
    lease.subscribe((datagram, from) => {
      const advert = parseDiscoveryReply(datagram);
      if (advert && isAllowedSource(from.address)) heard(advert, from, false);
    });
  };

  return {
    get running() {
      return running;
    },
    async start() {
      if (running) return;
      running = true;
      try {
        querySocket = await openLanQuerySocket({
          ...(options.bindAddress !== undefined ? { bindAddress: options.bindAddress } : {}),
          ...(options.openSocket ? { openSocket: options.openSocket } : {}),
          ...(options.platform ? { platform: options.platform } : {}),
          logger,
          isAllowedSource,
          onReply: (advert, from) => heard(advert, from, true),
        });
        if (options.listenForAnnouncements ?? true) await listenForAnnouncements();
        if (!running) throw new Error('LAN browser stopped while starting');
      } catch (error) {
        const stoppedMeanwhile = !running;
        running = false;
        await Promise.all([querySocket?.close(), lease?.release()]);
        querySocket = undefined;
        lease = undefined;
        if (stoppedMeanwhile) return;
        throw error;
      }
      timer = scheduler.setRepeating(() => void refresh(), intervalMs);
      await refresh();
    },
    async stop() {
      if (!running) return;
      running = false;
      if (timer !== undefined) scheduler.clearTimer(timer);
      timer = undefined;
      const closing = [querySocket?.close(), lease?.release()];
      querySocket = undefined;
      lease = undefined;
      await Promise.all(closing);
      table.clear();
      tracker.clear();
      lastStatuses = '[]';
      roundSentAt.clear();
      lastRoundAt = undefined;
      roundsSent = 0;
    },
    refresh,
    servers: () => table.list(),
    unicastStatus: () => tracker.statuses(unicastTargets()),
    on<E extends keyof LanBrowserEvents>(event: E, listener: LanBrowserEvents[E]) {
      if (!Object.hasOwn(listeners, event)) throw new TypeError(`LAN browser has no event '${String(event)}'`);
      // The same signature seen two ways: TypeScript does not narrow LanBrowserEvents[E] to its argument list.
      return listeners[event].add(listener as (...args: Parameters<LanBrowserEvents[E]>) => void);
    },
  };
}
