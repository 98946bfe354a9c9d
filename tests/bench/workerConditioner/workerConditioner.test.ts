import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerConditioner, type WorkerConditionerOptions } from '../../../bench/workerConditioner/workerConditioner';
import { LinkProfileError } from '../../../main/conditioner/linkProfile';
import { ManualScheduler } from '../../support/manualScheduler';
import { runCli } from '../../support/runCli';
import {
  closeTracked,
  relayRig,
  echoServer,
  endpoint,
  hasIpv6Loopback,
  waitFor,
  texts,
  track,
} from '../../main/conditioner/udpHelpers';

const ipv6 = await hasIpv6Loopback();

afterEach(closeTracked);

const rig = (options: Partial<WorkerConditionerOptions> = {}) =>
  relayRig((o: WorkerConditionerOptions) => WorkerConditioner.start(o), options);

async function canBind(port: number): Promise<void> {
  const probe = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.bind(port, '127.0.0.1', () => resolve());
  });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

describe('WorkerConditioner (the relay on a worker thread)', () => {
  it('relays both ways, in order, and reports exact counters synchronously', async () => {
    const { server, relay, client } = await rig({ seed: 7 });
    expect(relay.seed).toBe(7);
    expect(relay.target).toEqual({ host: '127.0.0.1', port: server.port });
    const sent = Array.from({ length: 200 }, (_, i) => `m${i}`);
    for (let i = 0; i < sent.length; i += 50) {
      for (const m of sent.slice(i, i + 50)) client.send(m, relay.address.port);
      await waitFor(() => client.received.length >= i + 50, `echoes up to ${i + 50}`);
    }
    expect(texts(server)).toEqual(sent);
    expect(texts(client)).toEqual(sent);
    expect(client.received.every((r) => r.from.port === relay.address.port)).toBe(true);
    const stats = relay.stats();
    expect(stats.upstream).toMatchObject({ received: 200, forwarded: 200, dropped: 0, queued: 0 });
    expect(stats.downstream).toMatchObject({ received: 200, forwarded: 200, dropped: 0 });
    expect(stats.upstream.forwardedBytes).toBe(sent.join('').length);
    const [mapping] = relay.clients();
    expect(mapping?.client.port).toBe(client.port);
    expect(server.received.every((r) => r.from.port === mapping?.relayPort)).toBe(true);
  });

  it('drops everything with loss = 1, per direction', async () => {
    const { server, relay, client } = await rig({ upstream: { loss: 1 } });
    for (let i = 0; i < 30; i++) client.send(`x${i}`, relay.address.port);
    await waitFor(() => relay.stats().upstream.received === 30, 'the relay to see all 30');
    expect(relay.stats().upstream).toMatchObject({ forwarded: 0, dropped: 30, drops: { loss: 30 } });
    expect(server.received).toEqual([]);
  });

  it('holds datagrams for the latency (queued in the worker, released in order)', async () => {
    const { server, relay, client } = await rig({ upstream: { latencyMs: 300 } });
    for (const m of ['a', 'b', 'c']) client.send(m, relay.address.port);
    await waitFor(() => relay.stats().upstream.received === 3, 'the relay to see all three');
    // Seen by the relay but still held: the counters say so before the server has anything.
    expect(relay.stats().upstream).toMatchObject({ queued: 3, forwarded: 0 });
    expect(server.received).toEqual([]);
    await waitFor(() => server.received.length === 3, 'the delayed datagrams');
    expect(texts(server)).toEqual(['a', 'b', 'c']);
    expect(relay.stats().upstream).toMatchObject({ queued: 0, forwarded: 3 });
  });

  it('applies a profile change before setProfile returns, and rejects bad ones without changing anything', async () => {
    const { server, relay, client } = await rig();
    client.send('a', relay.address.port);
    await waitFor(() => server.received.length === 1, 'the first datagram');
    relay.setProfile('upstream', { loss: 1 });
    expect(relay.profile('upstream').loss).toBe(1);
    expect(relay.profile('downstream').loss).toBe(0);
    client.send('b', relay.address.port);
    await waitFor(() => relay.stats().upstream.received === 2, 'the relay to see the second');
    expect(relay.stats().upstream.drops.loss).toBe(1);
    expect(() => relay.setProfile('both', { loss: 0, latencyMs: -3 })).toThrow(LinkProfileError);
    expect(() => relay.setProfile('sideways' as never, { loss: 0 })).toThrow(/direction must be/);
    expect(relay.profile('upstream').loss).toBe(1);
    relay.setProfile('both', { loss: 0 });
    client.send('c', relay.address.port);
    await waitFor(() => server.received.length === 2, 'the third datagram');
    expect(texts(server)).toEqual(['a', 'c']);
  });

  it('relays empty, binary and maximum-size datagrams and keeps going', async () => {
    const { server, relay, client } = await rig();
    const odd = [Buffer.alloc(0), Buffer.from([0xff, 0x00, 0xfe, 0x80]), Buffer.alloc(65_507, 0x5a)];
    for (const data of odd) client.send(data, relay.address.port);
    await waitFor(() => client.received.length === 3, 'the three odd echoes');
    expect(server.received.map((r) => r.data.length)).toEqual([0, 4, 65_507]);
    expect(client.received.map((r) => r.data)).toEqual(odd);
    client.send('after', relay.address.port);
    await waitFor(() => client.received.length === 4, 'an ordinary echo afterwards');
    expect(relay.stats()).toMatchObject({ errors: 0, upstream: { forwarded: 4 }, downstream: { forwarded: 4 } });
  });

  it.skipIf(!ipv6)('drops a datagram too big to cross from IPv6 to IPv4 and keeps relaying', async () => {
    const server = await track(echoServer());
    const relay = await track(
      WorkerConditioner.start({ listenHost: '::1', target: { host: '127.0.0.1', port: server.port } }),
    );
    const client = await track(endpoint('::1'));
    client.send(Buffer.alloc(65_520, 1), relay.address.port);
    client.send('after', relay.address.port);
    await waitFor(() => client.received.length === 1, 'the echo of the small one');
    expect(texts(server)).toEqual(['after']);
    expect(relay.stats().upstream).toMatchObject({ received: 2, forwarded: 1, drops: { unroutable: 1 } });
  });

  it('close() ends the worker, frees its ports, keeps the final counters and is safe to repeat', async () => {
    const server = await track(echoServer());
    const relay = await WorkerConditioner.start({ target: { host: '127.0.0.1', port: server.port } });
    const client = await track(endpoint());
    client.send('x', relay.address.port);
    await waitFor(() => client.received.length === 1, 'the echo');
    const ports = [relay.address.port, relay.clients()[0]!.relayPort!];
    await Promise.all([relay.close(), relay.close()]);
    await relay.close();
    expect(relay.stats()).toMatchObject({ mappings: 0, upstream: { forwarded: 1 }, downstream: { forwarded: 1 } });
    expect(relay.clients()).toEqual([]);
    for (const port of ports) await canBind(port);
  });

  it('lets the process exit once closed (no worker left running)', async () => {
    // Killed after 15 s, before the test's own timeout, so a leaked worker fails here with exit code null.
    const cli = runCli('tests/support/workerConditionerRun.ts', [], {}, 15_000);
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toMatch(/^relayed 5, closed$/m);
  });

  it('refuses bad options before starting a worker, with the in-thread errors', async () => {
    const start = (o: Partial<WorkerConditionerOptions>) =>
      WorkerConditioner.start({ target: { host: '127.0.0.1', port: 9 }, ...o });
    await expect(start({ target: { host: 'example.com', port: 9 } })).rejects.toThrow(/IP address or 'localhost'/);
    await expect(start({ target: { host: '192.0.2.1', port: 9 } })).rejects.toThrow(/not a loopback address/);
    await expect(start({ target: { host: '127.0.0.1', port: 0 } })).rejects.toThrow(/target\.port must be/);
    await expect(start({ upstream: { loss: 2 } })).rejects.toThrow(LinkProfileError);
    await expect(start({ scheduler: new ManualScheduler() } as never)).rejects.toThrow(/scheduler cannot cross/);
  });

  it('reports a port already in use as EADDRINUSE and leaves no worker behind', async () => {
    const taken = await track(endpoint());
    const failed = WorkerConditioner.start({ target: { host: '127.0.0.1', port: 9 }, listenPort: taken.port });
    await expect(failed).rejects.toThrow(/already in use/);
    await expect(failed).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
