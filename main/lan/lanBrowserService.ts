import type { LanList } from '../../shared/ipc/schemas/lan';
import {
  createLanBrowser,
  defaultDiscoveryPortRegistry,
  type DiscoveryPortLease,
  type DiscoveryPortRegistry,
  type LanBrowser,
  type LanBrowserOptions,
  type SendFailure,
} from '../net/discovery';
import { discoveryPortFailure } from './discoveryPortFailure';
import { lanListOf } from './lanServerView';
import { Listeners } from '../base/listeners';
import type { Logger } from '../base/logger';
import type { NetworkOptions } from '../base/networkOptions';

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
}

/** One continuous LAN search shared by every screen that shows the list. */
export interface LanBrowserService {
  list(): LanList;
  /** Starts searching (idempotent) and resolves with the list after the first round is sent. */
  start(): Promise<LanList>;
  stop(): Promise<LanList>;
  /** Sends a search round now (starting the search if needed). */
  refresh(): Promise<LanList>;
  /** Pushes the list again, e.g. after our own room opened or closed. */
  republish(): void;
  onChange(listener: (list: LanList) => void): () => void;
  close(): Promise<void>;
}

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

  const list = (): LanList =>
    lanListOf(browser?.running ?? false, browser?.servers() ?? [], options.ownInstanceId(), error);
  const publish = (): void => listeners.emit(list());
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
      ...(network.broadcastTargets ? { targets: [...network.broadcastTargets] } : {}),
      ...(network.networkInterfaces ? { networkInterfaces: network.networkInterfaces } : {}),
    });
    created.on('appeared', publish);
    created.on('changed', publish);
    created.on('gone', publish);
    created.on('sendError', onSendError);
    browser = created;
    return created;
  };

  const start = async (): Promise<LanList> => {
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
    publish();
    return list();
  };

  return {
    list,
    start,
    async stop() {
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
    republish: publish,
    onChange: (listener) => listeners.add(listener),
    async close() {
      listeners.clear();
      await browser?.stop();
    },
  };
}
