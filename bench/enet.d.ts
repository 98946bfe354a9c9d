// The few parts of npm `enet` (ENet compiled to JavaScript; it ships no types) that the benchmarks use.
declare module 'enet' {
  export const PACKET_FLAG: { RELIABLE: number };
  export class Packet {
    constructor(data: Buffer, flags?: number);
    data(): Buffer;
  }
  export interface Address {
    address: string;
    port: number;
  }
  export interface Peer {
    on(event: 'message', listener: (packet: Packet, channel: number) => void): void;
    on(event: 'disconnect', listener: () => void): void;
    off(event: 'message', listener: (packet: Packet, channel: number) => void): void;
    /** Queues a packet for the next service; the callback runs when ENet frees it (a reliable one: acknowledged). */
    send(channel: number, packet: Packet, callback?: (error?: unknown) => void): boolean;
    disconnectNow(data?: number): void;
  }
  export interface Host {
    on(event: 'connect', listener: (peer: Peer, data: unknown, outgoing: boolean) => void): void;
    /** Services the host (sends what is queued, reads what arrived) every `ms` milliseconds. */
    start(ms?: number): void;
    destroy(): void;
    address(): Address;
    connect(
      address: Address,
      channels: number,
      data: number,
      callback: (error: Error | undefined, peer: Peer) => void,
    ): Peer | undefined;
  }
  interface HostOptions {
    address?: Address;
    peers: number;
    channels: number;
    down: number;
    up: number;
  }
  export function createServer(
    options: HostOptions,
    callback: (error: Error | undefined, host: Host) => void,
  ): Host | undefined;
  export function createClient(
    options: HostOptions,
    callback: (error: Error | undefined, host: Host) => void,
  ): Host | undefined;
}
