import type { Link, WireProtocol } from '../v1/link';
import type { ConnectionStats } from '../v1/netStats';
import type { DepartureKind } from '../departure';

/** One connected client, as the server sees it. */
export class Peer {
  private addressValue: string;
  private portValue: number;

  constructor(
    /** Server-assigned id, from 1, never given twice (a v1 peer's is the one its accept named; see PeerIds). */
    readonly id: number,
    address: string,
    port: number,
    /** @internal the connection's state */
    readonly connection: Link,
    /**
     * Whether the client's connect request carried a native offer: true for a native peer; false for a v1 peer of
     * a server that takes offers (one it could read would have made the peer native); undefined when this server
     * takes none (it never reads them).
     */
    readonly offeredNative: boolean | undefined = undefined,
  ) {
    this.addressValue = address;
    this.portValue = port;
  }

  /** The client's IPv4 address (a native peer's changes when it moves: see Server.onMigrate). */
  get address(): string {
    return this.addressValue;
  }

  /** The client's UDP port. */
  get port(): number {
    return this.portValue;
  }

  /** @internal the Server moves a native peer once its new address is proven */
  moveTo(address: string, port: number): void {
    this.addressValue = address;
    this.portValue = port;
  }

  /**
   * Whether a send to this peer returned false (its reliable backlog reached the high-water mark) and the
   * server's `onDrain` has not named it since. Set by the Server; read it, do not write it.
   */
  needsDrain = false;

  /** 'native' when the client is ours and negotiated the fast path; 'v1' for gale.net peers. */
  get protocol(): WireProtocol {
    return this.connection.protocol;
  }

  /** The unsigned 64-bit connection token carried by every datagram. */
  get token(): bigint {
    return this.connection.token;
  }

  /** Native: bytes naming this connection, the same on both ends (see Link.channelBinding); undefined on v1. */
  get channelBinding(): Uint8Array | undefined {
    return this.connection.channelBinding;
  }

  /** Why its connection ended, once it has (the kind `Server.onDisconnect` names). */
  get departure(): DepartureKind | undefined {
    return this.connection.departure;
  }

  /** Smoothed round-trip time in seconds, or undefined before the first measurement. */
  get rtt(): number | undefined {
    return this.connection.rtt.smoothed;
  }

  /** RTT, jitter, loss estimate, traffic rates and counters of this peer's connection. */
  stats(): ConnectionStats {
    return this.connection.stats();
  }

  /** `address:port`, for logs and lists (the server finds peers by address and port, not by this string). */
  get endpoint(): string {
    return `${this.address}:${this.port}`;
  }
}
