/** Public entry of the gale.net-compatible transport. */
export { Channel, isReliableChannel } from '../../shared/net/channel';
export { Server, type ServerOptions, type MessageMap } from './server';
export { Client, type ClientState } from './client';
export { Peer } from './peer';
export type { WireProtocol } from './link';
export type { NativeOptions } from './endpointOptions';
export * as codec from './codec';
export type { EndpointOptions } from './endpointOptions';
export type { DriveMode } from './driver';
export {
  jsonSerializer,
  compactJsonSerializer,
  SerializationError,
  type Serializer,
  type DecodedMessage,
} from './serialization';
export { packHeader, unpackHeader, writeHeader, type PacketHeader } from './header';
export { isSequenceNewer, sequenceAdd, sequenceDiff } from './sequence';
export { Wire, ReservedType, Defaults, isReservedType } from './protocol';
export { PayloadTooLargeError, BindError, SendQueueFullError, ConnectError } from './errors';
export { TrafficCounters, DropReason } from './stats';
export type { ConnectionStats } from './netStats';
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
