import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { DiscoveryPortRegistry } from '../../../../main/net/discovery';
import { createMemoryNetwork, type MemoryNetwork, type OpenDatagramSocket } from '../../../../main/net/index';
import { createRecordingLogger, freeUdpPort, openRawPeer, waitFor } from './loopbackHelpers';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Opens sockets on an in-memory network, counting them. */
function countingFactory(): { create: OpenDatagramSocket; opened: number; network: MemoryNetwork } {
  const network = createMemoryNetwork();
  const factory = {
    network,
    opened: 0,
    create: (async (options) => {
      factory.opened += 1;
      return network.openSocket(options);
    }) as OpenDatagramSocket,
  };
  return factory;
}

const text = (data: Uint8Array) => Buffer.from(data).toString();

describe('DiscoveryPortRegistry', () => {
  it('hands out one socket per port, closing it after the last release', async () => {
    const port = 9998;
    const factory = countingFactory();
    const registry = new DiscoveryPortRegistry(factory.create, createRecordingLogger());
    const [first, second] = await Promise.all([registry.acquire(port), registry.acquire(port)]);
    expect(factory.opened).toBe(1);
    expect(first.socket).toBe(second.socket);
    expect(first.port).toBe(port);

    const heard: string[] = [];
    first.subscribe((data) => heard.push(`first:${text(data)}`));
    const unsubscribe = second.subscribe((data) => heard.push(`second:${text(data)}`));
    const sender = await factory.network.openSocket({ port: 0, host: '127.0.0.2', recvBufferSize: 0 });
    sender.send(Buffer.from('one'), port, '127.0.0.1');
    await waitFor(() => heard.length === 2);
    unsubscribe();
    sender.send(Buffer.from('two'), port, '127.0.0.1');
    await waitFor(() => heard.length === 3);
    expect(heard.sort()).toEqual(['first:one', 'first:two', 'second:one']);

    await first.release();
    await first.release(); // idempotent: must not steal the second lease
    expect(factory.network.boundSockets).toBe(2);
    await second.release();
    expect(factory.network.boundSockets).toBe(1); // only the sender is left
    // A later acquire binds afresh.
    const third = await registry.acquire(port);
    expect(factory.opened).toBe(2);
    await third.release();
    await sender.close();
  });

  it('binds a fresh ephemeral port for port 0, shareable by its real number', async () => {
    const factory = countingFactory();
    const registry = new DiscoveryPortRegistry(factory.create, createRecordingLogger());
    const a = await registry.acquire(0);
    const b = await registry.acquire(0);
    expect(a.port).not.toBe(b.port);
    const c = await registry.acquire(a.port);
    expect(c.socket).toBe(a.socket);
    expect(factory.opened).toBe(2);
    await Promise.all([a.release(), b.release(), c.release()]);
  });

  it('shares the port with other programs using address reuse', async () => {
    const port = await freeUdpPort();
    const other = await openRawPeer({ port, reuseAddr: true });
    cleanups.push(() => other.close());
    const registry = new DiscoveryPortRegistry(undefined, createRecordingLogger());
    const lease = await registry.acquire(port);
    expect(lease.port).toBe(port);
    await lease.release();
  });

  it('rejects with a clear error when the port is held exclusively, and can retry later', async () => {
    const port = await freeUdpPort();
    const exclusive = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => exclusive.bind(port, '0.0.0.0', () => resolve()));
    const registry = new DiscoveryPortRegistry(undefined, createRecordingLogger());
    await expect(registry.acquire(port)).rejects.toThrow(
      new RegExp(`cannot listen for LAN discovery on 0\\.0\\.0\\.0:${port}`),
    );
    await new Promise<void>((resolve) => exclusive.close(() => resolve()));
    const lease = await registry.acquire(port);
    await lease.release();
  });

  it('keeps delivering to other listeners when one throws', async () => {
    const logger = createRecordingLogger();
    const registry = new DiscoveryPortRegistry(undefined, logger);
    const lease = await registry.acquire(0, '127.0.0.1');
    cleanups.push(() => lease.release());
    const heard: string[] = [];
    lease.subscribe(() => {
      throw new Error('boom');
    });
    lease.subscribe((data) => heard.push(text(data)));
    const sender = await openRawPeer();
    cleanups.push(() => sender.close());
    await sender.send('ping', lease.port);
    await waitFor(() => heard.length === 1);
    expect(logger.warnings).toContain('discovery listener threw');
  });
});
