import { LAN_PARTY_PORTS } from '../../shared/netcheck/ports';

/** One address entry as `os.networkInterfaces()` returns it (family was numeric in Node 18.0–18.3). */
export interface InterfaceAddressLike {
  readonly address: string;
  readonly netmask: string;
  readonly family: string | number;
  readonly internal: boolean;
}

/** The shape of `os.networkInterfaces()`: interface name → its addresses. */
export type NetworkInterfacesLike = Readonly<Record<string, readonly InterfaceAddressLike[] | undefined>>;

/**
 * Every network parameter the backend's services use. The app runs on the defaults; tests pass loopback
 * values (bind and advertise 127.0.0.1, a random discovery port, targets ['127.255.255.255']) so nothing
 * they do reaches a real network.
 */
export interface NetworkOptions {
  /** UDP port of LAN discovery (responder and browser). */
  readonly discoveryPort: number;
  /** Where a hosted room's game port is bound. */
  readonly bindAddress: string;
  /** Where the discovery socket is bound; Linux delivers broadcasts only to the wildcard address. */
  readonly discoveryBindAddress: string;
  /** The address put in room codes; undefined picks this machine's first LAN address. */
  readonly advertiseAddress: string | undefined;
  /** Where searches and announcements go; undefined means every interface's broadcast address. */
  readonly broadcastTargets: readonly string[] | undefined;
  /** Time between a hosted room's announcements. */
  readonly announceIntervalMs: number;
  /** Time between LAN list search rounds. */
  readonly browseIntervalMs: number;
  /** The game port a room tries first (0: any free port). */
  readonly defaultGamePort: number;
  /** Seconds to wait for a host to answer a join. */
  readonly joinTimeoutSec: number;
  /** Targets of the network check's own-discovery test (loopback only); undefined: the platform default. */
  readonly selfTestTargets: readonly string[] | undefined;
  /** This machine's interfaces, read for the room's LAN addresses; undefined reads the OS. */
  readonly networkInterfaces: (() => NetworkInterfacesLike) | undefined;
  /**
   * Extra ICE host-candidate addresses for internet rooms (the ICE agent skips interfaces named veth*, tun*…,
   * which a VPN or a test namespace may use); undefined: none.
   */
  readonly iceHostAddresses?: readonly string[] | undefined;
  /**
   * Where the router port mapper (UPnP IGD, NAT-PMP, PCP) asks: undefined finds the system's default gateway; []
   * turns port mapping off (tests: nothing may reach a real router).
   */
  readonly routerGateways?: readonly string[] | undefined;
  /** Where UPnP's SSDP searches go besides the gateway itself; undefined: the multicast group 239.255.255.250. */
  readonly ssdpTargets?: readonly string[] | undefined;
  /**
   * HyperDHT bootstrap nodes as "host:port", where internet rooms with no router mapping meet their guests:
   * undefined, HyperDHT's public nodes (or the player's own list from Settings); [] turns the DHT off, no DHT
   * node is created at all (tests: nothing may reach the public DHT).
   */
  readonly dhtBootstrap?: readonly string[] | undefined;
}

/** What the real app uses. */
export const DEFAULT_NETWORK_OPTIONS: NetworkOptions = {
  discoveryPort: LAN_PARTY_PORTS.DISCOVERY,
  bindAddress: '0.0.0.0',
  discoveryBindAddress: '0.0.0.0',
  advertiseAddress: undefined,
  broadcastTargets: undefined,
  announceIntervalMs: 3000,
  browseIntervalMs: 2000,
  defaultGamePort: LAN_PARTY_PORTS.GAME,
  joinTimeoutSec: 5,
  selfTestTargets: undefined,
  networkInterfaces: undefined,
};

/** The defaults with some fields replaced. */
export function resolveNetworkOptions(overrides: Partial<NetworkOptions> = {}): NetworkOptions {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return { ...DEFAULT_NETWORK_OPTIONS, ...defined };
}
