export {
  BrowsedServerTable,
  serverKey,
  toServerInfo,
  type BrowsedServer,
  type BrowsedServerChange,
  type ServerInfo,
} from './browsedServerTable';
export { discoverLanServers, type DiscoverLanServersOptions } from './discoverLanServers';
export {
  DiscoveryPortRegistry,
  createReusableUdp4Socket,
  defaultDiscoveryPortRegistry,
  type DiscoveryPortLease,
  type DiscoveryPortListener,
} from './discoveryPortRegistry';
export { DISCOVERY, hasDiscoveryMagic } from './discoveryProtocol';
export {
  buildReferenceReply,
  buildRichReply,
  cleanDisplayText,
  isValidInstanceId,
  parseDiscoveryReply,
  randomInstanceId,
  type DiscoveryAdvert,
  type RoomActivity,
} from './discoveryReply';
export { buildDiscoveryQuery, parseDiscoveryRequest, type DiscoveryRequest } from './discoveryRequest';
export {
  LIMITED_BROADCAST,
  connectedSubnets,
  defaultBroadcastTargets,
  isOnSubnets,
  type Ipv4Subnet,
} from './interfaceTargets';
export type { InterfaceAddressLike, NetworkInterfacesLike } from '../../base/networkOptions';
export { createLanBrowser, type LanBrowser, type LanBrowserEvents, type LanBrowserOptions } from './lanBrowser';
export {
  startLanDiscovery,
  type LanDiscoveryExtraInfo,
  type LanDiscoveryHandle,
  type LanDiscoveryOptions,
  type LanDiscoveryStats,
} from './lanDiscoveryResponder';
export { PROBE_DEFAULTS, probeServer, type ProbeResult, type ProbeServerOptions } from './probeServer';
export type { SendFailure } from './sendDatagram';
export { unicastTargetKey, type UnicastTarget, type UnicastTargetStatus } from './unicastTargets';
