// The parts of npm `hyperdht` (it ships no types) that the DHT room uses, as its source (6.34) defines them.
declare module 'hyperdht' {
  import type { EventEmitter } from 'node:events';

  export interface DhtKeyPair {
    readonly publicKey: Buffer;
    readonly secretKey: Buffer;
  }

  export interface DhtAddress {
    readonly host: string;
    readonly port: number;
  }

  /** The Noise secret stream of one connection; `send`/`trySend` carry unordered encrypted messages. */
  export interface DhtStream extends EventEmitter {
    readonly remotePublicKey: Buffer;
    readonly rawStream: { readonly remoteHost: string; readonly remotePort: number } | null;
    readonly destroyed: boolean;
    send(message: Buffer): Promise<boolean> | undefined;
    trySend(message: Buffer): void;
    destroy(error?: Error): void;
    on(event: 'open' | 'close', listener: () => void): this;
    on(event: 'message', listener: (message: Buffer) => void): this;
    on(event: 'error', listener: (error: Error & { code?: string }) => void): this;
    on(event: 'data', listener: (data: Buffer) => void): this;
  }

  export interface DhtServerOptions {
    /** Returns true to refuse a connection before any reply (remote key, its payload, its address). */
    firewall?: (remotePublicKey: Buffer, remotePayload: unknown, clientAddress: DhtAddress) => boolean;
    shareLocalAddress?: boolean;
  }

  export interface DhtServer extends EventEmitter {
    readonly publicKey: Buffer | null;
    listen(keyPair: DhtKeyPair): Promise<void>;
    close(): Promise<void>;
    on(event: 'connection', listener: (stream: DhtStream) => void): this;
  }

  export interface DhtOptions {
    bootstrap?: (string | DhtAddress)[];
    ephemeral?: boolean;
    firewalled?: boolean;
    host?: string;
    port?: number;
  }

  export default class HyperDHT extends EventEmitter {
    constructor(options?: DhtOptions);
    static keyPair(seed?: Buffer): DhtKeyPair;
    /** Whether no one can reach this node unasked (dht-rpc's view from its pings). */
    readonly firewalled: boolean;
    /** This node's public address and port as the DHT sees it; port 0 with a host: a randomizing NAT. */
    readonly host: string | null;
    readonly port: number;
    readonly randomized: boolean;
    readonly destroyed: boolean;
    address(): DhtAddress;
    ready(): Promise<void>;
    fullyBootstrapped(): Promise<void>;
    createServer(options: DhtServerOptions, onConnection?: (stream: DhtStream) => void): DhtServer;
    connect(publicKey: Buffer, options?: { keyPair?: DhtKeyPair }): DhtStream;
    destroy(): Promise<void>;
  }
}

declare module 'hyperdht/testnet' {
  import type HyperDHT from 'hyperdht';

  interface Testnet {
    readonly nodes: HyperDHT[];
    readonly bootstrap: { host: string; port: number }[];
    destroy(): Promise<void>;
  }
  export default function createTestnet(size?: number, options?: { host?: string; port?: number }): Promise<Testnet>;
}
