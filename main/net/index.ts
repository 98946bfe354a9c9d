/** Public entry of the gale.net-compatible transport. */
export { Channel, isReliableChannel } from '../../shared/net/channel';
export { Server, type ServerOptions, type MessageMap } from './endpoint/server';
export { Client, type ClientState } from './endpoint/client';
export { Peer } from './endpoint/peer';
export type { WireProtocol } from './endpoint/link';
export type { NativeOptions } from './endpoint/endpointOptions';
export * as codec from './codec';
export type { EndpointOptions } from './endpoint/endpointOptions';
export type { DriveMode } from './endpoint/driver';
export {
  jsonSerializer,
  compactJsonSerializer,
  SerializationError,
  type Serializer,
  type DecodedMessage,
} from './v1/serialization';
export { packHeader, unpackHeader, writeHeader, type PacketHeader } from './v1/header';
export { isSequenceNewer, sequenceAdd, sequenceDiff } from '../../shared/net/sequenceMath';
export { Wire, ReservedType, Defaults, isReservedType } from './v1/protocol';
export { PayloadTooLargeError, BindError, SendQueueFullError, ConnectError } from './errors';
export { TrafficCounters, DropReason } from './endpoint/stats';
export type { ConnectionStats } from './endpoint/netStats';
export {
  startLanDiscovery,
  discoverLanServers,
  createLanBrowser,
  type LanDiscoveryHandle,
  type LanDiscoveryOptions,
  type LanBrowser,
  type ServerInfo,
  type BrowsedServer,
} from './discovery';
export { resolveRoomHost, encodeRoomCodeForHost } from './resolveRoomHost';
