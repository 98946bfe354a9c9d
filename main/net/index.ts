/**
 * Public entry of the gale.net-compatible transport: what a game uses, nothing of the wire format's
 * insides (those live in v1/, native/ and endpoint/, imported by path where a test or tool needs them).
 *
 * Units: as in gale.net, every time is in seconds — options (`heartbeatInterval`, `timeout`, `tickInterval`,
 * `idleTickInterval`, `retransmit.minRto`/`maxRto`, `connect(…, { timeout })`), `update(dt)`, `getRtt()`,
 * `peer.rtt` and the `stats()` fields (`rtt`, `jitter`; rates are per second). Sizes are bytes; `maxQueued`,
 * `highWaterMark` and `lowWaterMark` count messages (native: units of at most one datagram). The one exception is LAN
 * discovery, whose times are milliseconds and say so in their names (`timeoutMs`, `intervalMs`,
 * `goneAfterMs`, `announce.intervalMs`, `pingMs`; `firstSeenAt`/`lastSeenAt` on its scheduler's ms clock).
 */
export { Channel, isReliableChannel } from '../../shared/net/channel';
export { Server, type ServerOptions, type MessageMap } from './endpoint/server';
export type { ConnectLimits } from './endpoint/connectLimiter';
export type { BucketLimit } from './endpoint/sourceBuckets';
export { Client, type ClientState } from './endpoint/client';
export { Peer } from './endpoint/peer';
export type { WireProtocol } from './v1/link';
export type { EndpointOptions, NativeOptions } from './endpoint/endpointOptions';
export type { RetransmitOptions } from './v1/rttEstimator';
export type { DriveMode } from './endpoint/driver';
export type {
  DatagramHandlers,
  DatagramSocket,
  DatagramSource,
  OpenDatagramSocket,
  OpenDatagramSocketOptions,
} from './endpoint/datagramSocket';
export {
  createMemoryNetwork,
  type MemoryDropFilter,
  type MemoryNetwork,
  type MemoryNetworkOptions,
  type MemoryNetworkStats,
} from './endpoint/memorySocket';
export {
  openUdpSocket,
  openUdpDatagramSocket,
  DEFAULT_RECV_BUFFER,
  type OpenSocket,
  type OpenSocketOptions,
} from './endpoint/udpSocket';
export type { ConnectionStats } from './v1/netStats';
export type { DropReason, TrafficCounters } from './v1/stats';
export * as codec from './codec';
export {
  jsonSerializer,
  compactJsonSerializer,
  SerializationError,
  type Serializer,
  type DecodedMessage,
} from './v1/serialization';
export { PayloadTooLargeError, BindError, SendQueueFullError, ConnectError } from './errors';
export { linkLost, type DepartureKind, type ConnectFailure } from './departure';
export type { HostTransport, GuestTransport, TransportPeer } from './transportSides';
export {
  startLanDiscovery,
  discoverLanServers,
  createLanBrowser,
  type DiscoverLanServersOptions,
  type LanDiscoveryHandle,
  type LanDiscoveryOptions,
  type LanDiscoveryExtraInfo,
  type LanDiscoveryStats,
  type LanBrowser,
  type LanBrowserEvents,
  type LanBrowserOptions,
  type ServerInfo,
  type BrowsedServer,
} from './discovery';
export { resolveRoomHost, encodeRoomCodeForHost, type Ipv4Lookup } from './resolveRoomHost';
