import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { LinkConditioner, type LinkConditionerOptions } from '../../../main/conditioner/linkConditioner';
import { LinkProfileError } from '../../../main/conditioner/linkProfile';
import { ManualScheduler } from '../../support/manualScheduler';
import {
  closeTracked,
  relayRig,
  echoServer,
  endpoint,
  hasIpv6Loopback,
  pause,
  waitFor,
  texts,
  track,
} from './udpHelpers';

const ipv6 = await hasIpv6Loopback();

afterEach(closeTracked);

const rig = (options: Partial<LinkConditionerOptions> = {}) =>
  relayRig((o: LinkConditionerOptions) => LinkConditioner.start(o), options);

describe('LinkConditioner over real loopback sockets', () => {
  it('relays both ways, everything in order, with impairments off', async () => {
    const { server, relay, client } = await rig();
    const sent = Array.from({ length: 300 }, (_, i) => `m${i}`);
    for (let i = 0; i < sent.length; i += 50) {
      for (const m of sent.slice(i, i + 50)) client.send(m, relay.address.port);
      await waitFor(() => client.received.length >= i + 50, `echoes up to ${i + 50}`);
    }
    expect(texts(server)).toEqual(sent);
    expect(texts(client)).toEqual(sent);
    expect(client.received.every((r) => r.from.port === relay.address.port)).toBe(true);
    const stats = relay.stats();
    expect(stats.upstream).toMatchObject({ received: 300, forwarded: 300, dropped: 0, reordered: 0, queued: 0 });
    expect(stats.downstream).toMatchObject({ received: 300, forwarded: 300, dropped: 0 });
    expect(stats.upstream.forwardedBytes).toBe(sent.join('').length);
    expect(stats.mappings).toBe(1);
  });

  it('delivers nothing upstream with loss = 1', async () => {
    const { server, relay, client } = await rig({ upstream: { loss: 1 } });
    for (let i = 0; i < 50; i++) client.send(`x${i}`, relay.address.port);
    await waitFor(() => relay.stats().upstream.received === 50, 'the relay to see all 50');
    await pause(50);
    expect(server.received).toEqual([]);
    expect(relay.stats().upstream).toMatchObject({ dropped: 50, drops: { loss: 50 } });
  });

  it('delivers nothing downstream with loss = 1 while upstream still flows', async () => {
    const { server, relay, client } = await rig({ downstream: { loss: 1 } });
    for (let i = 0; i < 20; i++) client.send(`y${i}`, relay.address.port);
    await waitFor(() => server.received.length === 20, 'the server to get all 20');
    await waitFor(() => relay.stats().downstream.received === 20, 'the echoes to reach the relay');
    await pause(30);
    expect(client.received).toEqual([]);
    expect(relay.stats().downstream.drops.loss).toBe(20);
  });

  it('applies latency in each direction (round trip at least the sum)', async () => {
    const { relay, client } = await rig({ upstream: { latencyMs: 60 }, downstream: { latencyMs: 40 } });
    const sentAt = performance.now();
    client.send('ping', relay.address.port);
    await waitFor(() => client.received.length === 1, 'the delayed echo');
    expect(client.received[0]!.at - sentAt).toBeGreaterThanOrEqual(100);
  });

  it('gives each client source its own upstream port, and routes replies back to the right client', async () => {
    const { server, relay } = await rig();
    const clients = [await track(endpoint()), await track(endpoint()), await track(endpoint())];
    clients.forEach((c, i) => c.send(`from${i}`, relay.address.port));
    await waitFor(() => clients.every((c) => c.received.length === 1), 'one echo per client');
    clients.forEach((c, i) => expect(texts(c)).toEqual([`from${i}`]));
    const serverSeen = new Set(server.received.map((r) => r.from.port));
    expect(serverSeen.size).toBe(3);
    const mapped = relay.clients();
    expect(new Set(mapped.map((m) => m.relayPort))).toEqual(serverSeen);
    expect(new Set(mapped.map((m) => m.client.port))).toEqual(new Set(clients.map((c) => c.port)));
    expect(clients.some((c) => serverSeen.has(c.port))).toBe(false);
  });

  it('bounds the number of mappings and drops datagrams from further clients', async () => {
    const { server, relay } = await rig({ maxMappings: 2 });
    const clients = [await track(endpoint()), await track(endpoint()), await track(endpoint())];
    for (const c of clients) {
      c.send('hi', relay.address.port);
      await waitFor(() => relay.stats().upstream.received === clients.indexOf(c) + 1, 'the relay to see it');
    }
    await waitFor(() => server.received.length === 2, 'two datagrams at the server');
    await pause(30);
    expect(server.received).toHaveLength(2);
    expect(relay.stats()).toMatchObject({ mappings: 2, upstream: { drops: { unroutable: 1 } } });
  });

  it('connects each mapping socket to the target, so a stranger’s datagram to it is dropped unseen', async () => {
    const { server, relay, client } = await rig();
    client.send('hello', relay.address.port);
    await waitFor(() => client.received.length === 1, 'the echo');
    const relayPort = relay.clients()[0]!.relayPort!;
    const stranger = await track(endpoint());
    stranger.send('sneaky', relayPort);
    // The stranger's datagram would reach the mapping socket before this echo does: it is read in order.
    client.send('again', relay.address.port);
    await waitFor(() => client.received.length === 2, 'the second echo');
    expect(texts(client)).toEqual(['hello', 'again']);
    expect(relay.stats()).toMatchObject({ strays: 0, errors: 0, downstream: { received: 2 } });
    expect(server.received).toHaveLength(2);
  });

  it('keeps running while the target is down (its refusals counted) and relays again once it is back', async () => {
    const gone = await endpoint();
    const port = gone.port;
    await gone.close();
    const relay = await track(LinkConditioner.start({ target: { host: '127.0.0.1', port } }));
    const client = await track(endpoint());
    client.send('lost', relay.address.port);
    // The connected mapping socket hears the kernel's port-unreachable as a socket error: counted, never thrown.
    await waitFor(() => relay.stats().errors >= 1, 'the refusal to be counted');
    const back = createSocket('udp4');
    back.on('message', (data, from) => back.send(data, from.port, from.address));
    await new Promise<void>((resolve) => back.bind(port, '127.0.0.1', resolve));
    try {
      client.send('back', relay.address.port);
      await waitFor(() => client.received.length === 1, 'the echo once the target is back');
      expect(texts(client)).toEqual(['back']);
      expect(relay.stats()).toMatchObject({ mappings: 1, upstream: { received: 2, forwarded: 2 } });
    } finally {
      await new Promise<void>((resolve) => back.close(() => resolve()));
    }
  });

  it('changes settings at run time and rejects bad ones without changing anything', async () => {
    const { server, relay, client } = await rig();
    client.send('a', relay.address.port);
    await waitFor(() => server.received.length === 1, 'the first datagram');
    relay.setProfile('upstream', { loss: 1 });
    expect(relay.profile('upstream').loss).toBe(1);
    expect(relay.profile('downstream').loss).toBe(0);
    client.send('b', relay.address.port);
    await waitFor(() => relay.stats().upstream.received === 2, 'the relay to see the second');
    expect(() => relay.setProfile('both', { loss: 0, latencyMs: -3 })).toThrow(LinkProfileError);
    expect(relay.profile('upstream').loss).toBe(1);
    expect(() => relay.setProfile('sideways' as never, { loss: 0 })).toThrow(/direction must be/);
    relay.setProfile('both', { loss: 0 });
    client.send('c', relay.address.port);
    await waitFor(() => server.received.length === 2, 'the third datagram');
    expect(texts(server)).toEqual(['a', 'c']);
  });

  it('close() frees the listening and mapping ports and is safe to repeat', async () => {
    const server = await track(echoServer());
    const relay = await LinkConditioner.start({ target: { host: '127.0.0.1', port: server.port } });
    const client = await track(endpoint());
    client.send('x', relay.address.port);
    await waitFor(() => client.received.length === 1, 'the echo');
    const ports = [relay.address.port, relay.clients()[0]!.relayPort!];
    await relay.close();
    await relay.close();
    expect(relay.stats().mappings).toBe(0);
    for (const port of ports) {
      const probe = createSocket('udp4');
      await new Promise<void>((resolve, reject) => {
        probe.once('error', reject);
        probe.bind(port, '127.0.0.1', () => resolve());
      });
      await new Promise<void>((resolve) => probe.close(() => resolve()));
    }
  });

  it('refuses non-loopback addresses, names, bad ports and bad profiles', async () => {
    const start = (o: Partial<LinkConditionerOptions>) =>
      LinkConditioner.start({ target: { host: '127.0.0.1', port: 9 }, ...o });
    await expect(start({ target: { host: '192.0.2.1', port: 9 } })).rejects.toThrow(
      /target 192\.0\.2\.1 is not a loopback address; set allowNonLoopback/,
    );
    await expect(start({ listenHost: '0.0.0.0' })).rejects.toThrow(/listenHost 0\.0\.0\.0 is not a loopback/);
    await expect(start({ target: { host: 'example.com', port: 9 } })).rejects.toThrow(/IP address or 'localhost'/);
    await expect(start({ target: { host: '127.0.0.1', port: 0 } })).rejects.toThrow(/target\.port must be an integer/);
    await expect(start({ listenPort: 70000 })).rejects.toThrow(/listenPort/);
    await expect(start({ upstream: { loss: 2 } })).rejects.toThrow(LinkProfileError);
    await expect(start({ maxMappings: 0 })).rejects.toThrow(/maxMappings must be a positive integer/);
    await expect(start({ seed: 1.5 })).rejects.toThrow(/seed must be an integer/);
  });

  it.skipIf(!ipv6)('relays over IPv6 loopback, and from an IPv4 listener to an IPv6 target', async () => {
    const server = await track(echoServer('::1'));
    const v6 = await track(LinkConditioner.start({ listenHost: '::1', target: { host: '::1', port: server.port } }));
    expect(v6.address).toMatchObject({ host: '::1', family: 'IPv6' });
    const client6 = await track(endpoint('::1'));
    client6.send('six', v6.address.port);
    await waitFor(() => client6.received.length === 1, 'the IPv6 echo');

    const mixed = await track(LinkConditioner.start({ target: { host: '[::1]', port: server.port } }));
    const client4 = await track(endpoint());
    client4.send('four-to-six', mixed.address.port);
    await waitFor(() => client4.received.length === 1, 'the mixed-family echo');
    expect(texts(server)).toEqual(['six', 'four-to-six']);
  });

  it.skipIf(!ipv6)('drops a datagram too big for IPv4 on its way from an IPv6 side, as unroutable', async () => {
    const server = await track(echoServer());
    const relay = await track(
      LinkConditioner.start({ listenHost: '::1', target: { host: '127.0.0.1', port: server.port } }),
    );
    const client = await track(endpoint('::1'));
    client.send(Buffer.alloc(65_508, 1), relay.address.port);
    client.send('after', relay.address.port);
    await waitFor(() => client.received.length === 1, 'the echo of the small one');
    expect(texts(server)).toEqual(['after']);
    expect(relay.stats().upstream).toMatchObject({ received: 2, forwarded: 1, drops: { unroutable: 1 } });
  });

  it('reports a port already in use', async () => {
    const taken = await track(endpoint());
    const failed = LinkConditioner.start({ target: { host: '127.0.0.1', port: 9 }, listenPort: taken.port });
    await expect(failed).rejects.toThrow(/already in use/);
    await expect(failed).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('LinkConditioner with a manual clock', () => {
  it('releases a delayed datagram exactly when the clock reaches it', async () => {
    const scheduler = new ManualScheduler();
    const { server, relay, client } = await rig({ scheduler, upstream: { latencyMs: 1000 } });
    client.send('later', relay.address.port);
    await waitFor(() => relay.stats().upstream.queued === 1, 'the datagram to be queued');
    scheduler.advance(999);
    await pause(30);
    expect(server.received).toEqual([]);
    scheduler.advance(1);
    await waitFor(() => server.received.length === 1, 'the release');
    expect(relay.stats().upstream.queued).toBe(0);
  });

  it('expires idle mappings and opens a fresh one for the next datagram', async () => {
    const scheduler = new ManualScheduler();
    const { server, relay, client } = await rig({ scheduler, idleTimeoutMs: 1000 });
    client.send('one', relay.address.port);
    await waitFor(() => client.received.length === 1, 'the first echo');
    scheduler.advance(500);
    expect(relay.stats().mappings).toBe(1);
    scheduler.advance(1000);
    expect(relay.stats().mappings).toBe(0);
    expect(relay.clients()).toEqual([]);
    client.send('two', relay.address.port);
    await waitFor(() => client.received.length === 2, 'the second echo');
    expect(relay.stats().mappings).toBe(1);
    expect(texts(server)).toEqual(['one', 'two']);
  });
});
