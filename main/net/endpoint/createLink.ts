import { Connection } from '../v1/connection';
import type { ResolvedEndpointOptions } from './endpointOptions';
import type { Link, LinkEvents } from '../v1/link';
import { NativeConnection } from '../native/nativeConnection';
import type { PathMigration } from '../native/migration/nativeMigration';
import type { DirectionKeys } from '../native/protection/packetProtection';
import { serializerFor, type NativeParams } from '../native/handshake/negotiation';

/** What a new connection needs from its owner (Server or Client). */
export interface LinkWiring extends LinkEvents {
  /** Native only: ask the owner to flush at the end of this tick. */
  requestFlush: () => void;
  /** Native only: ask the owner to call `flushAcks()` at this clock time (a copy or a repeated ACK is due). */
  requestWake?: (at: number) => void;
  /** Native only: the other side's advertised receive window, bytes (from the offer, or from the accept). */
  peerRecvWindow?: number;
  /** Native only: the packet keys the handshake agreed. */
  keys?: DirectionKeys;
  /** Native only, server side: how the peer may move to another address. */
  migration?: PathMigration;
  /** Native only, client side: ping beside the pongs to the server's pings (see HealthOptions.followPeerPings). */
  followPeerPings?: boolean;
}

/**
 * The connection for what the handshake agreed: native with the agreed parameters (each side
 * keeps the smaller of its own and the other's limits), or v1 when there are none.
 */
export function createLink(
  options: ResolvedEndpointOptions,
  agreed: NativeParams | undefined,
  wiring: LinkWiring,
): Link {
  const common = {
    token: wiring.token,
    clock: options.clock,
    heartbeatInterval: options.heartbeatInterval,
    timeout: options.timeout,
    retransmit: options.retransmit,
    maxQueued: options.maxQueued,
    transmit: wiring.transmit,
    onMessage: wiring.onMessage,
    onClosed: wiring.onClosed,
  };
  const native = options.native;
  if (!agreed || !native) return new Connection({ ...common, serializer: options.serializer });
  if (!wiring.keys) throw new Error('a native connection needs the packet keys of its handshake');
  const link = new NativeConnection({
    ...common,
    serializer: serializerFor(agreed.codec, native.serializer),
    mtu: Math.min(agreed.mtu, native.mtu),
    maxMessageSize: Math.min(agreed.maxMessage, native.maxMessageSize),
    reassemblyBytes: native.reassemblyBytes,
    requestFlush: wiring.requestFlush,
    requestWake: wiring.requestWake,
    peerRecvWindow: wiring.peerRecvWindow,
    keys: wiring.keys,
    migration: wiring.migration,
    followPeerPings: wiring.followPeerPings,
  });
  // Link.channelBinding: what the handshake gave, read once by the lobby; the hot-path class never needs it.
  return Object.assign(link, { channelBinding: wiring.keys.binding });
}
