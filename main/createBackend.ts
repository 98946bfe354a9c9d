import { ipcContract, type IpcContract } from '../shared/ipc/contract';
import { createGateway, type Gateway } from './ipc/gateway';
import type { HandlersOf } from './ipc/handlerTypes';
import type { Ipv4Lookup } from './net/index';
import { createSettingsStore, type SettingsStore } from './settings/settingsStore';
import { settingsHandlers } from './settings/settingsHandlers';
import { DEFAULT_INTERNET_SETTINGS } from '../shared/ipc/schemas/internetSettings';
import { createInternetReach, openRendezvousGuest, stunEndpointsForSettings } from './reach/internet/index';
import { createLanReach } from './reach/lan/index';
import { conditionedReach } from './conditioner/conditionedReach';
import { systemScheduler } from './base/scheduler';
import { appInfoHandlers, type AppFacts } from './shell/appInfoHandlers';
import { shellHandlers } from './shell/shellHandlers';
import { createShellService, type ShellService } from './shell/shellService';
import { rendererErrorHandlers } from './shell/rendererErrorHandlers';
import { createDevConditioner, devConditionerHandlers, type DevConditioner } from './conditioner/devConditioner';
import { createGameService, type GameService } from './game/gameService';
import type { GameTuning } from './game/gameServiceTypes';
import { createLanBrowserService, type LanBrowserService } from './lan/lanBrowserService';
import { lanHandlers } from './lan/lanHandlers';
import { lobbyHandlers } from './lobby/lobbyHandlers';
import { createLobbyService, type LobbyService } from './lobby/lobbyService';
import { latestPerFrame } from './base/latestPerFrame';
import type { Logger } from './base/logger';
import { netcheckHandlers } from './netcheck/netcheckHandlers';
import { resolveNetworkOptions, type NetworkOptions } from './base/networkOptions';
import type { MapPort } from './reach/portmap/portMapping';
import { mappingRecordPath } from './reach/portmap/mappingRecord';
import { startPortMapping } from './reach/portmap/startPortMapping';
import { startDhtNode, type DhtNode } from './reach/internet/dht/dhtNode';

/** Everything the backend needs from its host; Node only, so Electron main and the dev server share it. */
export interface BackendOptions {
  readonly app: AppFacts;
  readonly userDataDir: string;
  readonly osUserName: string;
  /** Check outputs and event payloads against the contract (true in dev and tests). */
  readonly validateOutputs: boolean;
  readonly logger: Logger;
  /** Network parameters; the defaults are the real app's (tests pass loopback ones). */
  readonly network?: Partial<NetworkOptions>;
  /** Resolves host names for join-by-address; default the system resolver. */
  readonly lookup?: Ipv4Lookup;
  /**
   * Round length, results hold, a fixed snapshot rate (30: the old one, for benches) and games (the e2e tests play
   * short rounds and look at results longer); default the app's.
   */
  readonly game?: GameTuning;
  /** The folder the log files are in, named in exported network check reports; absent: console only. */
  readonly logsDir?: string;
  /** Asks where to save a file (Electron's save dialog); absent where there is none, e.g. the dev server. */
  readonly chooseSavePath?: (suggestedName: string) => Promise<string | null>;
  /**
   * Asks the router to map an internet room's port (a direct room, no rendezvous); tests pass a fake. Absent: the
   * router port mapper for `network` (routerGateways: [] turns it off), its record in `userDataDir`.
   */
  readonly mapPort?: MapPort;
  /**
   * The DHT node internet rooms meet their guests on when the router maps nothing; tests pass one on a private
   * DHT. Absent: the node for `network.dhtBootstrap` (undefined: the public DHT; [] turns it off, no node at all).
   */
  readonly dht?: DhtNode;
}

/** The services plus the gateway that exposes them. */
export interface Backend {
  readonly gateway: Gateway<IpcContract>;
  readonly settings: SettingsStore;
  readonly lobby: LobbyService;
  readonly lan: LanBrowserService;
  readonly game: GameService;
  /** The developer's simulated bad network for rooms this app joins. */
  readonly devConditioner: DevConditioner;
  readonly network: NetworkOptions;
  /** The DHT node (created on first use); undefined when the DHT is off. */
  readonly dht: DhtNode | undefined;
  /** Room links, recovery notices, update status and menu commands from the desktop shell to the page. */
  readonly shell: ShellService;
  /** Closes the room (telling its players), stops the LAN search and event forwarding. */
  close(): Promise<void>;
}

/** Composition root: builds each service, registers its handlers and forwards its events. */
export function createBackend(options: BackendOptions): Backend {
  const network = resolveNetworkOptions(options.network);
  const platform = options.app.platform as NodeJS.Platform;
  const { logger } = options;
  const settings = createSettingsStore({ dir: options.userDataDir, osUserName: options.osUserName, logger });
  const devConditioner = createDevConditioner({ logger });
  // The ways rooms are reached; the developer's simulated bad network sits in front of each.
  const lanReach = createLanReach({ network, platform, logger, ...(options.lookup ? { lookup: options.lookup } : {}) });
  // The router's port mapping; leftovers of a crashed run are cleared in the background.
  const mapPort =
    options.mapPort ??
    startPortMapping({
      gateways: network.routerGateways,
      ssdpTargets: network.ssdpTargets,
      networkInterfaces: network.networkInterfaces,
      recordFile: mappingRecordPath(options.userDataDir),
      logger,
    });
  // The DHT where rooms with no router mapping meet their guests: nothing is sent until a room or a join uses it.
  const dht =
    options.dht ??
    startDhtNode({
      bootstrap: network.dhtBootstrap,
      chosenBootstrap: async () => (await settings.get()).internet?.dhtBootstrap,
      bindAddress: network.bindAddress,
      logger,
    });
  const internetReach = createInternetReach({
    settings: async () => (await settings.get()).internet ?? DEFAULT_INTERNET_SETTINGS,
    scheduler: systemScheduler,
    logger,
    ...(network.iceHostAddresses ? { hostAddresses: network.iceHostAddresses } : {}),
    ...(mapPort ? { mapPort } : {}),
    ...(dht ? { dht } : {}),
    bindAddress: network.bindAddress,
  });
  const lobby = createLobbyService({
    network,
    reaches: {
      lan: conditionedReach(lanReach, devConditioner, logger),
      internet: conditionedReach(internetReach, devConditioner, logger),
    },
    settings: settings.get,
    platform,
    appVersion: options.app.version,
    logger,
  });
  const lan = createLanBrowserService({
    network,
    logger,
    ownInstanceId: () => lobby.ownInstanceId(),
    addedServers: { load: () => settings.getLanServers(), save: (servers) => settings.setLanServers(servers) },
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  const openRoom = () => {
    const view = lobby.view();
    return view.role === 'host' && view.port !== null && view.state
      ? { port: view.port, roomName: view.state.roomName }
      : null;
  };
  // Runs or joins the room's game; its events go out through the gateway built just below.
  const game = createGameService({
    emit: (name, payload) => gateway.emit(name, payload),
    logger,
    conditioner: () => devConditioner.summary(),
    ...options.game,
  });
  const shell = createShellService((name, payload) => gateway.emit(name, payload));
  const handlers: HandlersOf<IpcContract> = {
    ...rendererErrorHandlers({ logger }),
    ...appInfoHandlers(options.app, { portMapping: mapPort !== undefined }),
    ...settingsHandlers(settings),
    ...lobbyHandlers(lobby),
    ...lanHandlers(lan),
    ...netcheckHandlers({
      network,
      platform,
      openRoom,
      facts: { appName: options.app.name, version: options.app.version, platform, logsDir: options.logsDir ?? null },
      stunServers: async () =>
        stunEndpointsForSettings((await settings.get()).internet ?? DEFAULT_INTERNET_SETTINGS, async (url) => {
          const guest = await openRendezvousGuest({ url, scheduler: systemScheduler, timeoutMs: 3000 });
          guest.close();
          // STUN needs the relay's address only; an anonymous connection gets no credentials.
          return guest.relays.length > 0
            ? { urls: [...guest.relays], username: '-', password: '-', expiresAt: 0 }
            : null;
        }),
      ...(options.chooseSavePath ? { chooseSavePath: options.chooseSavePath } : {}),
    }),
    ...game.handlers,
    ...devConditionerHandlers(devConditioner),
    ...shellHandlers(shell),
  };
  const gateway = createGateway(ipcContract, handlers, { validateOutputs: options.validateOutputs, logger });
  // A peer can change the room many times a frame (chat, pings): the renderer gets the latest view once a frame.
  const lobbyViews = latestPerFrame((view: ReturnType<LobbyService['view']>) => gateway.emit('lobby.changed', view));
  const stops = [
    settings.onChange((next) => gateway.emit('settings.changed', next)),
    lobby.onChange((view) => lobbyViews.push(view)),
    () => lobbyViews.cancel(),
    lan.onChange((list) => gateway.emit('lan.servers', list)),
    // Our own room appears or goes: re-flag it in the LAN list.
    lobby.onSession(() => lan.republish()),
    // Games start with lobby.start, guests attach on joining, and everything stops when the room goes.
    game.bindLobby(lobby),
  ];
  let closing: Promise<void> | null = null;
  return {
    gateway,
    settings,
    lobby,
    lan,
    game,
    devConditioner,
    network,
    dht,
    shell,
    close() {
      closing ??= (async () => {
        for (const stop of stops) stop();
        await Promise.all([lobby.close(), lan.close()]);
        // A node the caller passed in is the caller's to close.
        if (!options.dht) await dht?.close();
      })();
      return closing;
    },
  };
}
