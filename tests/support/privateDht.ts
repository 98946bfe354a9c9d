import createTestnet from 'hyperdht/testnet';
import { silentLogger, type Logger } from '../../main/base/logger';
import { startDhtNode, type DhtNode } from '../../main/reach/internet/dht/dhtNode';

/** A private HyperDHT on 127.0.0.1: its bootstrap nodes ("host:port", for NetworkOptions.dhtBootstrap) and nodes on it. */
export interface PrivateDht {
  readonly bootstrap: string[];
  /** A backend's DHT node on this DHT (bound to 127.0.0.1); closed with the DHT. */
  node(logger?: Logger): DhtNode;
}

/**
 * Starts `size` DHT nodes on 127.0.0.1 that know only each other (hyperdht/testnet): tests meet on it and never
 * on the public bootstrap nodes. Registers its teardown, and that of every node made on it, in `cleanups`.
 */
export async function privateDht(cleanups: Array<() => unknown>, size = 3): Promise<PrivateDht> {
  const testnet = await createTestnet(size, { host: '127.0.0.1' });
  cleanups.push(() => testnet.destroy());
  const bootstrap = testnet.bootstrap.map(({ host, port }) => `${host}:${port}`);
  return {
    bootstrap,
    node(logger = silentLogger) {
      const node = startDhtNode({ bootstrap, bindAddress: '127.0.0.1', logger });
      if (!node) throw new Error('a private DHT always has bootstrap nodes');
      cleanups.push(() => node.close());
      return node;
    },
  };
}
