import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import { LAN_ADDED_SERVERS_MAX, type LanAddedServer, type LanList } from '../../shared/ipc/schemas/lan';
import { resolveRoomHost, type Ipv4Lookup } from '../net/index';
import {
  createLanBrowser,
  defaultDiscoveryPortRegistry,
  type DiscoveryPortLease,
  type DiscoveryPortRegistry,
  type LanBrowser,
  type LanBrowserOptions,
  type SendFailure,
  type UnicastTarget,
  type UnicastTargetStatus,
} from '../net/discovery';
import { discoveryPortFailure } from './discoveryPortFailure';
import { lanListOf } from './lanServerView';
import { Listeners } from '../base/listeners';
import type { Logger } from '../base/logger';
import type { NetworkOptions } from '../base/networkOptions';
import { backgroundScheduler, type Scheduler, type TimerHandle } from '../base/scheduler';
import { systemWallClock, type WallClock } from '../base/wallClock';

/** Options of {@link createLanBrowserService}. */
export interface LanBrowserServiceOptions {
  readonly network: NetworkOptions;
  readonly logger: Logger;
  /** Our hosted room's discovery instance id, to flag it in the list. */
  readonly ownInstanceId: () => string | null;
  /** Swappable for tests. */
  readonly createBrowser?: (options: LanBrowserOptions) => LanBrowser;
  /** Where the discovery port's shared socket comes from; default the process's registry. */
  readonly registry?: DiscoveryPortRegistry;
  /** Where the servers added by address are remembered (the settings file); default nowhere. */
  readonly addedServers?: AddedServersStore;
  /** Resolves a typed host name to IPv4; default the system resolver. */
  readonly lookup?: Ipv4Lookup;
  /** The browser's clock and timers (shared with the browser it creates); default real time, unref'd timers. */
  readonly scheduler?: Scheduler;
  /** For the "seen 12 s ago" the renderer shows; default the system's. */
  readonly wallClock?: WallClock;
}

/** A server added by address, as remembered: what the player typed and the discovery port. */
export interface AddedServerAddress {
  readonly host: string;
  readonly port: number;
}

/** Persistence of the servers added by address. */
export interface AddedServersStore {
  load(): Promise<readonly AddedServerAddress[]>;
  save(servers: readonly AddedServerAddress[]): Promise<void>;
}

/** One continuous LAN search shared by every screen that shows the list. */
export interface LanBrowserService {
  list(): LanList;
  /** Starts searching (idempotent) and resolves with the list after the first round is sent. */
  start(): Promise<LanList>;
  stop(): Promise<LanList>;
  /** Sends a search round now (starting the search if needed). */
  refresh(): Promise<LanList>;
  /** Remembers a server to ask by unicast every round (resolving a name first); asks it now if searching. */
  addServer(server: AddedServerAddress): Promise<LanList>;
  /** Forgets a server added by address. */
  removeServer(server: AddedServerAddress): Promise<LanList>;
  /** Pushes the list again, e.g. after our own room opened or closed. */
  republish(): void;
  onChange(listener: (list: LanList) => void): () => void;
  close(): Promise<void>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Most often a list goes out only because servers were heard again (their last-seen time moved on). */
const SEEN_PUSH_MAX_MS = 1000;

const MAC_LOCAL_NETWORK =
  'macOS is blocking LAN Party from the local network. Turn LAN Party on in System Settings › Privacy & ' +
  'Security › Local Network, then restart it.';

/** Creates the service; nothing is sent until {@link LanBrowserService.start}. */
export function createLanBrowserService(options: LanBrowserServiceOptions): LanBrowserService {
  const { network, logger } = options;
  const listeners = new Listeners<[LanList]>((listenerError) => logger.warn('LAN list listener failed', listenerError));
  const create = options.createBrowser ?? createLanBrowser;
  const registry = options.registry ?? defaultDiscoveryPortRegistry;
  let browser: LanBrowser | null = null;
  let error: string | null = null;
  // The servers added by address, each with the IPv4 address its name resolved to (null: could not resolve).
  let added: Array<{ host: string; port: number; address: string | null; detail: string | null }> = [];
  const ports = { discovery: network.discoveryPort, game: network.defaultGamePort };
  const scheduler = options.scheduler ?? backgroundScheduler;
  const wallClock = options.wallClock ?? systemWallClock;
  const seenPushMs = Math.min(network.browseIntervalMs, SEEN_PUSH_MAX_MS);
  // A healthy server can look a round plus a push old; one silent past that has missed a round. (The browser
  // drops it after three rounds and 500 ms, so a stale row shows for a while before it goes.)
  const staleAfterMs = network.browseIntervalMs + seenPushMs + 500;
  let seenTimer: TimerHandle | undefined;
  let publishedSeen = '';

  const resolve = async (host: string): Promise<{ address: string | null; detail: string | null }> => {
    try {
      return { address: await resolveRoomHost(host, options.lookup), detail: null };
    } catch (resolveError) {
      return { address: null, detail: `Could not find “${host}” on the network (${messageOf(resolveError)}).` };
    }
  };
  const loading = (async () => {
    if (!options.addedServers) return;
    try {
      const saved = await options.addedServers.load();
      added = await Promise.all(saved.map(async (entry) => ({ ...entry, ...(await resolve(entry.host)) })));
    } catch (loadError) {
      logger.warn('servers added by address could not be loaded', loadError);
    }
  })();
  const save = async (): Promise<void> => {
    try {
      await options.addedServers?.save(added.map(({ host, port }) => ({ host, port })));
    } catch (saveError) {
      logger.warn('servers added by address could not be saved', saveError);
    }
  };
  const unicastTargets = (): UnicastTarget[] =>
    added.flatMap((entry) => (entry.address !== null ? [{ host: entry.address, port: entry.port }] : []));
  const addedView = (): LanAddedServer[] => {
    const statuses: UnicastTargetStatus[] = browser?.running ? browser.unicastStatus() : [];
    return added.map((entry) => {
      const found = statuses.find((s) => s.host === entry.address && s.port === entry.port);
      if (entry.address === null) {
        return { host: entry.host, port: entry.port, status: 'unreachable', serverId: null, detail: entry.detail };
      }
      return {
        host: entry.host,
        port: entry.port,
        status: found?.status ?? 'waiting',
        serverId: found?.status === 'answered' ? (found.serverKey ?? null) : null,
        detail: found?.detail ?? null,
      };
    });
  };

  const list = (): LanList => {
    const now = scheduler.now();
    const wallNow = wallClock();
    return lanListOf({
      running: browser?.running ?? false,
      servers: browser?.servers() ?? [],
      ownInstanceId: options.ownInstanceId(),
      error,
      ports,
      added: addedView(),
      wallTimeOf: (monotonicMs) => wallNow - (now - monotonicMs),
      staleAfterMs,
    });
  };
  const seenSignature = (): string => (browser?.servers() ?? []).map((s) => s.lastSeenAt).join(',');
  const publish = (): void => {
    publishedSeen = seenSignature();
    listeners.emit(list());
  };
  // Replies that change nothing shown raise no browser event: push the list when servers were heard again, so
  // the renderer's "seen … ago" restarts from a fresh time instead of counting up to stale.
  const pushWhenHeard = (): void => {
    if (browser?.running && seenSignature() !== publishedSeen) publish();
  };
  const stopSeenTimer = (): void => {
    if (seenTimer !== undefined) scheduler.clearTimer(seenTimer);
    seenTimer = undefined;
  };
  const onSendError = (failure: SendFailure): void => {
    // Unreachable broadcast addresses are routine (no default route, a VPN adapter); only macOS's denial is news.
    if (failure.hint === 'macos-local-network' && error !== MAC_LOCAL_NETWORK) {
      error = MAC_LOCAL_NETWORK;
      publish();
    }
  };
  const ensureBrowser = (): LanBrowser => {
    if (browser) return browser;
    const created = create({
      port: network.discoveryPort,
      intervalMs: network.browseIntervalMs,
      bindAddress: network.discoveryBindAddress,
      logger,
      registry,
      scheduler,
      unicastTargets,
      ...(network.broadcastTargets ? { targets: [...network.broadcastTargets] } : {}),
      ...(network.networkInterfaces ? { networkInterfaces: network.networkInterfaces } : {}),
    });
    created.on('appeared', publish);
    created.on('changed', publish);
    created.on('gone', publish);
    created.on('sendError', onSendError);
    created.on('targets', publish);
    browser = created;
    return created;
  };

  const start = async (): Promise<LanList> => {
    await loading;
    const current = ensureBrowser();
    if (current.running) return list();
    error = null;
    // The browser shrugs off a busy discovery port (it still sends searches) and would say it runs while deaf to
    // every announcement. Take the port first: a lease held across the start shares its socket with the browser.
    let probe: DiscoveryPortLease | undefined;
    try {
      probe = await registry.acquire(network.discoveryPort, network.discoveryBindAddress);
      await current.start();
    } catch (startError) {
      logger.warn('LAN search could not start', startError);
      if (current.running) await current.stop();
      error = discoveryPortFailure(network.discoveryPort, startError);
    } finally {
      await probe?.release();
    }
    if (current.running && seenTimer === undefined) seenTimer = scheduler.setRepeating(pushWhenHeard, seenPushMs);
    publish();
    return list();
  };

  return {
    list,
    start,
    async stop() {
      stopSeenTimer();
      await browser?.stop();
      error = null;
      publish();
      return list();
    },
    async refresh() {
      if (!browser?.running) return start();
      await browser.refresh();
      publish();
      return list();
    },
    async addServer(server) {
      await loading;
      const key = (entry: AddedServerAddress): string => `${entry.host.toLowerCase()}:${entry.port}`;
      if (added.some((entry) => key(entry) === key(server))) return list();
      if (added.length >= LAN_ADDED_SERVERS_MAX) {
        throw new IpcError(
          IpcErrorCode.FAILED_PRECONDITION,
          `You can add up to ${LAN_ADDED_SERVERS_MAX} servers. Remove one first.`,
        );
      }
      const resolved = await resolve(server.host);
      if (resolved.address === null) throw new IpcError(IpcErrorCode.NOT_FOUND, resolved.detail ?? 'Unknown host');
      added = [...added, { host: server.host, port: server.port, ...resolved }];
      await save();
      if (browser?.running) await browser.refresh();
      publish();
      return list();
    },
    async removeServer(server) {
      await loading;
      const before = added.length;
      added = added.filter(
        (entry) => !(entry.host.toLowerCase() === server.host.toLowerCase() && entry.port === server.port),
      );
      if (added.length !== before) await save();
      publish();
      return list();
    },
    republish: publish,
    onChange: (listener) => listeners.add(listener),
    async close() {
      listeners.clear();
      stopSeenTimer();
      await browser?.stop();
    },
  };
}
