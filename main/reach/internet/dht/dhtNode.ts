import HyperDHT, { type DhtAddress, type DhtOptions } from 'hyperdht';
import type { Logger } from '../../../base/logger';

/** How this machine's NAT looks to the DHT, in the words of the network check. */
export type DhtNatKind =
  /** Others reach this machine unasked (a public address, or a router that forwards). */
  | 'open'
  /** A NAT that keeps one public port per local port: hole punching works with most others. */
  | 'consistent'
  /** A NAT that picks a new public port per destination: punching works only with a consistent NAT on the other side. */
  | 'randomized'
  /** Not enough DHT nodes answered yet to say. */
  | 'unknown';

/** What the DHT node has seen of this machine (dht-rpc's firewall check and NAT sampler). */
export interface DhtNatView {
  readonly kind: DhtNatKind;
  /** The public address and port the DHT sees; null until sampled (port 0: randomized). */
  readonly publicAddress: string | null;
  readonly publicPort: number;
}

/** The backend's one DHT node, created on first use. */
export interface DhtNode {
  /** The node, created and bootstrapped at the first call (nothing goes to the DHT before a room or a join asks). */
  get(): Promise<HyperDHT>;
  /** What the node sees of this machine's NAT; undefined while no node runs. */
  natView(): DhtNatView | undefined;
  /** Destroys the node, if one was created. */
  close(): Promise<void>;
}

/** Options of {@link startDhtNode}. */
export interface DhtNodeOptions {
  /**
   * "host:port" bootstrap nodes (NetworkOptions.dhtBootstrap): undefined, HyperDHT's public ones; [] turns the DHT
   * off (every test and dev loopback run: no node is created at all).
   */
  readonly bootstrap: readonly string[] | undefined;
  /** The player's own bootstrap nodes (Settings), used when `bootstrap` is undefined; read at the first use. */
  readonly chosenBootstrap?: () => Promise<readonly string[] | undefined>;
  /** The local address of the node's UDP sockets; default every interface. */
  readonly bindAddress?: string;
  readonly logger: Logger;
  /** Builds the node; default hyperdht's. */
  readonly create?: (options: DhtOptions) => HyperDHT;
}

/** "host:port" or "[v6]:port" as the DHT takes it; the caller checked the shape (dhtNodeSchema). */
export function dhtAddress(text: string): DhtAddress {
  const at = text.lastIndexOf(':');
  return { host: text.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(text.slice(at + 1)) };
}

/** The NAT view of a running node. */
export function natViewOf(dht: Pick<HyperDHT, 'firewalled' | 'host' | 'port'>): DhtNatView {
  const publicAddress = dht.host;
  const kind: DhtNatKind =
    publicAddress === null ? 'unknown' : !dht.firewalled ? 'open' : dht.port === 0 ? 'randomized' : 'consistent';
  return { kind, publicAddress, publicPort: dht.port };
}

/**
 * The DHT node of a backend, or undefined when `bootstrap` is [] (the DHT off). The node is ephemeral: it asks
 * and answers for itself only, never stores or routes for others, so a stranger on the DHT cannot make this
 * machine a part of its lookups; it never relays (its servers get no relayThrough).
 */
export function startDhtNode(options: DhtNodeOptions): DhtNode | undefined {
  if (options.bootstrap?.length === 0) return undefined;
  const create = options.create ?? ((dhtOptions: DhtOptions) => new HyperDHT(dhtOptions));
  let node: Promise<HyperDHT> | undefined;
  let running: HyperDHT | undefined;
  let closed = false;
  return {
    get() {
      if (closed) return Promise.reject(new Error('the DHT node was closed'));
      node ??= (async () => {
        const chosen = await options.chosenBootstrap?.().catch(() => undefined);
        const bootstrap = options.bootstrap ?? (chosen?.length ? chosen : undefined);
        if (closed) throw new Error('the DHT node was closed');
        const dht = create({
          ephemeral: true,
          ...(bootstrap ? { bootstrap: bootstrap.map(dhtAddress) } : {}),
          ...(options.bindAddress ? { host: options.bindAddress } : {}),
        });
        running = dht;
        options.logger.info(`DHT node started (bootstrap: ${bootstrap ? bootstrap.join(', ') : 'the public nodes'})`);
        await dht.ready();
        return dht;
      })();
      return node;
    },
    natView: () => (running && !running.destroyed ? natViewOf(running) : undefined),
    async close() {
      closed = true;
      await running?.destroy();
    },
  };
}
