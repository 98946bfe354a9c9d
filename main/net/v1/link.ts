import type { Channel } from '../../../shared/net/channel';
import type { ConnectionStats } from './netStats';
import type { RttEstimator } from './rttEstimator';
import type { Serializer } from './serialization';
import type { TrafficCounters } from './stats';
import type { DepartureKind } from '../departure';

/** Which wire protocol a connection speaks. */
export type WireProtocol = 'v1' | 'native';

/** What the owner (Server or Client) hands a connection of either protocol: its token and where its output goes. */
export interface LinkEvents {
  token: bigint;
  /** Sends a datagram; true when its bytes were handed to the OS before returning (see DatagramSink in packetWriter.ts). */
  transmit: (datagram: Uint8Array) => boolean | void;
  onMessage: (type: string, payload: Record<string, unknown>, channel: Channel) => void;
  onClosed: (reason: string, kind: DepartureKind) => void;
}

/** What Server, Client and Peer need of a connection, whichever protocol it speaks. */
export interface Link {
  readonly protocol: WireProtocol;
  readonly token: bigint;
  /** Native: public bytes both ends derived from the handshake's keys, naming this connection; v1 has none. */
  readonly channelBinding?: Uint8Array;
  /** The body codec this connection speaks (native connections negotiate theirs). */
  readonly serializer: Serializer;
  readonly counters: TrafficCounters;
  /** Heartbeat RTT, the reference's smoothed figure. */
  readonly rtt: RttEstimator;
  readonly closed: boolean;
  /** Why it ended, once it has. */
  readonly departure: DepartureKind | undefined;
  /** Reliable messages (native: units) not yet acknowledged or still queued. */
  readonly pendingReliable: number;
  /** @internal the owner's flush queues mark a waiting connection here (see FlushQueue); 0 when it waits in none */
  queueMarks: number;
  /** Largest body `sendBody` takes on `channel`, bytes. */
  maxBody(channel: Channel): number;
  /** Sends an already serialized body; throws SendQueueFullError when a reliable queue is full. */
  sendBody(body: Uint8Array, channel: Channel): void;
  /** Heartbeats, retransmissions, timeouts; then sends what waits. */
  service(now: number): void;
  /** Sends pending acknowledgements (and, natively, every frame waiting in the current datagram). */
  flushAcks(): void;
  /** A round-trip sample from outside the connection (the handshake). */
  addRttSample(seconds: number): void;
  stats(): ConnectionStats;
  /** Ends locally without telling the other side. */
  close(reason: string, kind: DepartureKind): void;
  /** Tells the other side, then closes (`kind`: why, by default our own choice). */
  disconnect(reason: string, kind?: DepartureKind): void;
}
