import dgram, { type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { DiscoveryPortRegistry, createReusableUdp4Socket } from '../../../../main/net/discovery';
import { createRecordingLogger, freeUdpPort, openRawPeer, waitFor } from './loopbackHelpers';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function countingFactory(): { create: () => Socket; created: Socket[] } {
  const created: Socket[] = [];
  return {
    created,
    create: () => {
      const socket = createReusableUdp4Socket();
      created.push(socket);
      return socket;
    },
  };
}

describe('DiscoveryPortRegistry', () => {
  it('hands out one socket per port, closing it after the last release', async () => {
    const port = await freeUdpPort();
    const factory = countingFactory();
    const registry = new DiscoveryPortRegistry(factory.create, createRecordingLogger());
    const [first, second] = await Promise.all([registry.acquire(port), registry.acquire(port)]);
    expect(factory.created).toHaveLength(1);
    expect(first.socket).toBe(second.socket);
    expect(first.port).toBe(port);

    const heard: string[] = [];
    first.subscribe((data) => heard.push(`first:${data.toString()}`));
    const unsubscribe = second.subscribe((data) => heard.push(`second:${data.toString()}`));
    const sender = await openRawPeer();
    cleanups.push(() => sender.close());
    await sender.send('one', port);
    await waitFor(() => heard.length === 2);
    unsubscribe();
    await sender.send('two', port);
    await waitFor(() => heard.length === 3);
    expect(heard.sort()).toEqual(['first:one', 'first:two', 'second:one']);

    await first.release();
    await first.release(); // idempotent: must not steal the second lease
    expect(second.socket.address().port).toBe(port);
    await second.release();
    expect(() => second.socket.address()).toThrow();
    // A later acquire binds afresh.
    const third = await registry.acquire(port);
    expect(factory.created).toHaveLength(2);
    await third.release();
  });

  it('binds a fresh ephemeral port for port 0, shareable by its real number', async () => {
    const factory = countingFactory();
    const registry = new DiscoveryPortRegistry(factory.create, createRecordingLogger());
    const a = await registry.acquire(0);
    const b = await registry.acquire(0);
    expect(a.port).not.toBe(b.port);
    const c = await registry.acquire(a.port);
    expect(c.socket).toBe(a.socket);
    expect(factory.created).toHaveLength(2);
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
    lease.subscribe((data) => heard.push(data.toString()));
    const sender = await openRawPeer();
    cleanups.push(() => sender.close());
    await sender.send('ping', lease.port);
    await waitFor(() => heard.length === 1);
    expect(logger.warnings).toContain('discovery listener threw');
  });
});
