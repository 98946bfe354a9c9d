export {
  BrowsedServerTable,
  serverKey,
  toServerInfo,
  type BrowsedServer,
  type BrowsedServerChange,
  type ServerInfo,
} from './browser/browsedServerTable';
export { discoverLanServers, type DiscoverLanServersOptions } from './browser/discoverLanServers';
export {
  DiscoveryPortRegistry,
  defaultDiscoveryPortRegistry,
  type DiscoveryPortLease,
  type DiscoveryPortListener,
} from './discoveryPortRegistry';
export { DISCOVERY, hasDiscoveryMagic } from './advert/discoveryProtocol';
export {
  buildReferenceReply,
  buildRichReply,
  cleanDisplayText,
  isValidInstanceId,
  parseDiscoveryReply,
  randomInstanceId,
  type DiscoveryAdvert,
  type RoomActivity,
} from './advert/discoveryReply';
export { buildDiscoveryQuery, parseDiscoveryRequest, type DiscoveryRequest } from './advert/discoveryRequest';
export {
  LIMITED_BROADCAST,
  connectedSubnets,
  defaultBroadcastTargets,
  isOnSubnets,
  type Ipv4Subnet,
} from './interfaceTargets';
export type { InterfaceAddressLike, NetworkInterfacesLike } from '../../base/networkOptions';
export { createLanBrowser, type LanBrowser, type LanBrowserEvents, type LanBrowserOptions } from './browser/lanBrowser';
export {
  startLanDiscovery,
  type LanDiscoveryExtraInfo,
  type LanDiscoveryHandle,
  type LanDiscoveryOptions,
  type LanDiscoveryStats,
} from './responder/lanDiscoveryResponder';
export { PROBE_DEFAULTS, probeServer, type ProbeResult, type ProbeServerOptions } from './browser/probeServer';
export type { SendFailure } from './sendDatagram';
export { unicastTargetKey, type UnicastTarget, type UnicastTargetStatus } from './browser/unicastTargets';
