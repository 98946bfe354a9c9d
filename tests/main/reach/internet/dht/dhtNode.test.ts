import type HyperDHT from 'hyperdht';
import type { DhtOptions } from 'hyperdht';
import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../../../main/base/logger';
import { dhtAddress, natViewOf, startDhtNode } from '../../../../../main/reach/internet/dht/dhtNode';
import { loopbackNetwork } from '../../../../support/loopbackNetwork';
import { resolveNetworkOptions } from '../../../../../main/base/networkOptions';

/** A stand-in for hyperdht's constructor: records the options, never opens a socket. */
function fakeCreate() {
  const made: DhtOptions[] = [];
  const create = vi.fn((options: DhtOptions) => {
    made.push(options);
    const destroy = vi.fn(() => Promise.resolve());
    return {
      ready: () => Promise.resolve(),
      destroy,
      destroyed: false,
      firewalled: true,
      host: '198.51.100.7',
      port: 0,
    } as unknown as HyperDHT;
  });
  return { create, made };
}

describe('the DHT node', () => {
  it('is never created with the loopback network options every test uses (dhtBootstrap [])', () => {
    const network = resolveNetworkOptions(loopbackNetwork(1));
    expect(network.dhtBootstrap).toEqual([]);
    const { create } = fakeCreate();
    expect(startDhtNode({ bootstrap: network.dhtBootstrap, logger: silentLogger, create })).toBeUndefined();
    expect(create).not.toHaveBeenCalled();
  });

  it('is created at the first use only, ephemeral, on the bootstrap nodes given, and once', async () => {
    const { create, made } = fakeCreate();
    const node = startDhtNode({
      bootstrap: ['203.0.113.10:49737', '[::1]:5'],
      bindAddress: '127.0.0.1',
      logger: silentLogger,
      create,
    })!;
    expect(create).not.toHaveBeenCalled();
    expect(node.natView()).toBeUndefined();
    const [a, b] = await Promise.all([node.get(), node.get()]);
    expect(a).toBe(b);
    expect(create).toHaveBeenCalledTimes(1);
    expect(made[0]).toEqual({
      ephemeral: true,
      bootstrap: [
        { host: '203.0.113.10', port: 49737 },
        { host: '::1', port: 5 },
      ],
      host: '127.0.0.1',
    });
    expect(node.natView()).toEqual({ kind: 'randomized', publicAddress: '198.51.100.7', publicPort: 0 });
    await node.close();
    expect(a.destroy).toHaveBeenCalledTimes(1);
    await expect(node.get()).rejects.toThrow(/closed/);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('takes the player’s own bootstrap nodes when the network names none, else the public ones', async () => {
    const chosen = fakeCreate();
    await startDhtNode({
      bootstrap: undefined,
      chosenBootstrap: () => Promise.resolve(['192.0.2.1:1']),
      logger: silentLogger,
      create: chosen.create,
    })!.get();
    expect(chosen.made[0]?.bootstrap).toEqual([{ host: '192.0.2.1', port: 1 }]);
    const publicOnes = fakeCreate();
    await startDhtNode({ bootstrap: undefined, logger: silentLogger, create: publicOnes.create })!.get();
    // No bootstrap option: hyperdht's own public nodes (the app's default, never a test's).
    expect(publicOnes.made[0]).toEqual({ ephemeral: true });
  });

  it('names this machine’s NAT as the DHT sees it', () => {
    expect(natViewOf({ firewalled: false, host: '203.0.113.5', port: 49737 }).kind).toBe('open');
    expect(natViewOf({ firewalled: true, host: '203.0.113.5', port: 40001 }).kind).toBe('consistent');
    expect(natViewOf({ firewalled: true, host: '203.0.113.5', port: 0 }).kind).toBe('randomized');
    expect(natViewOf({ firewalled: true, host: null, port: 0 }).kind).toBe('unknown');
    expect(dhtAddress('dht.example.org:49737')).toEqual({ host: 'dht.example.org', port: 49737 });
  });
});
