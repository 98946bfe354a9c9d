import { afterEach, describe, expect, it } from 'vitest';
import { LinkConditioner, type LinkConditionerOptions } from '../../../main/conditioner/linkConditioner';
import { MAX_WAITING } from '../../../main/conditioner/relay/clientMappings';
import type { DatagramSocket } from '../../../main/net/endpoint/datagramSocket';
import { createMemoryNetwork, type MemoryNetwork } from '../../../main/net/endpoint/memorySocket';
import { ManualScheduler } from '../../support/manualScheduler';
import { waitFor } from '../../support/waitFor';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close();
});

interface Peer {
  socket: DatagramSocket;
  texts: string[];
  from: string[];
}

/** A socket on `network` that records what it hears; an echo sends each datagram back to its source. */
async function peer(network: MemoryNetwork, echo = false, host = '127.0.0.1'): Promise<Peer> {
  const socket = await network.openSocket({ port: 0, host, recvBufferSize: 0, family: host.includes(':') ? 6 : 4 });
  cleanups.push(() => socket.close());
  const heard: Peer = { socket, texts: [], from: [] };
  socket.listen({
    message: (data, from) => {
      heard.texts.push(Buffer.from(data).toString());
      heard.from.push(`${from.address}:${from.port}`);
      if (echo) socket.send(data, from.port, from.address);
    },
    sendError: (error) => heard.texts.push(`send error ${error.message}`),
    error: (error) => heard.texts.push(`error ${error.message}`),
  });
  return heard;
}

/** A target echo server, a conditioner in front of it and a client, all on one memory network. */
async function rig(options: Partial<LinkConditionerOptions> = {}, host = '127.0.0.1') {
  const network = createMemoryNetwork();
  const scheduler = new ManualScheduler();
  const server = await peer(network, true, host);
  const relay = await LinkConditioner.start({
    target: { host, port: server.socket.port },
    listenHost: host,
    scheduler,
    openSocket: network.openSocket,
    ...options,
  });
  cleanups.push(() => relay.close());
  const client = await peer(network, false, host);
  const send = (text: string) => client.socket.send(Buffer.from(text), relay.address.port, host);
  return { network, scheduler, server, relay, client, send };
}

describe('LinkConditioner over the memory network, on a manual clock', () => {
  it('drops and delays each direction as set, and relays the rest both ways in order', async () => {
    const { scheduler, server, relay, client, send } = await rig({
      seed: 7,
      upstream: { loss: 0.25, latencyMs: 100 },
      downstream: { latencyMs: 40 },
    });
    const sent = Array.from({ length: 200 }, (_, i) => `m${i}`);
    for (const text of sent) send(text);
    await waitFor(() => relay.stats().upstream.received === sent.length, 2000, 'the relay to read every datagram');
    const lost = relay.stats().upstream.drops.loss;
    const kept = sent.length - lost;
    expect(lost).toBeGreaterThan(10);
    expect(lost).toBeLessThan(90);
    expect(relay.stats().upstream).toMatchObject({ queued: kept, forwarded: 0 });

    scheduler.advance(99);
    expect(relay.stats().upstream).toMatchObject({ queued: kept, forwarded: 0 });
    scheduler.advance(1);
    expect(relay.stats().upstream).toMatchObject({ queued: 0, forwarded: kept });
    await waitFor(() => server.texts.length === kept, 2000, 'the target to get what was kept');
    // What got through is the sent sequence less the losses, in order, from the one port standing for the client.
    const indices = server.texts.map((text) => sent.indexOf(text));
    expect(indices.every((index, i) => index >= 0 && (i === 0 || index > indices[i - 1]!))).toBe(true);
    expect(new Set(server.from)).toEqual(new Set([`127.0.0.1:${relay.clients()[0]!.relayPort}`]));

    await waitFor(() => relay.stats().downstream.queued === kept, 2000, 'the echoes to reach the relay');
    scheduler.advance(39);
    expect(client.texts).toEqual([]);
    expect(relay.stats().downstream.forwarded).toBe(0);
    scheduler.advance(1);
    await waitFor(() => client.texts.length === kept, 2000, 'the echoes at the client');
    expect(client.texts).toEqual(server.texts);
    expect(new Set(client.from)).toEqual(new Set([`127.0.0.1:${relay.address.port}`]));
    expect(relay.stats()).toMatchObject({ mappings: 1, strays: 0, errors: 0, downstream: { dropped: 0 } });
  });

  it('holds a new client’s first burst while its socket opens, up to a bound, and counts the rest as unroutable', async () => {
    const { server, relay, send } = await rig();
    // One delivery batch: every datagram reaches the relay before the mapping's socket has opened.
    const sent = Array.from({ length: MAX_WAITING + 10 }, (_, i) => `b${i}`);
    for (const text of sent) send(text);
    await waitFor(() => server.texts.length === MAX_WAITING, 2000, 'the held datagrams at the target');
    expect(server.texts).toEqual(sent.slice(0, MAX_WAITING));
    expect(relay.stats().upstream).toMatchObject({
      received: sent.length,
      forwarded: MAX_WAITING,
      drops: { unroutable: 10 },
    });
    // Once open, nothing waits: a later burst of the same size gets through whole.
    const later = sent.map((text) => `again ${text}`);
    for (const text of later) send(text);
    await waitFor(() => server.texts.length === MAX_WAITING + later.length, 2000, 'the second burst');
    expect(server.texts.slice(MAX_WAITING)).toEqual(later);
  });

  it('connects each mapping socket to the target: a stranger’s datagram to it never reaches the relay', async () => {
    const { network, server, relay, client, send } = await rig();
    send('hello');
    await waitFor(() => client.texts.length === 1, 2000, 'the echo');
    const stranger = await peer(network);
    const droppedBefore = network.stats.dropped;
    stranger.socket.send(Buffer.from('sneaky'), relay.clients()[0]!.relayPort!, '127.0.0.1');
    await waitFor(() => network.stats.dropped === droppedBefore + 1, 2000, 'the stranger’s datagram to be dropped');
    send('again');
    await waitFor(() => client.texts.length === 2, 2000, 'the second echo');
    expect(client.texts).toEqual(['hello', 'again']);
    expect(server.texts).toEqual(['hello', 'again']);
    expect(relay.stats()).toMatchObject({ strays: 0, errors: 0, downstream: { received: 2 } });
  });

  it('relays between IPv6 sockets, and closes every socket it opened', async () => {
    const { network, relay, client, send } = await rig({}, '::1');
    expect(relay.address).toMatchObject({ host: '::1', family: 'IPv6' });
    send('six');
    await waitFor(() => client.texts.length === 1, 2000, 'the IPv6 echo');
    expect(client.from).toEqual([`::1:${relay.address.port}`]);
    const before = network.boundSockets;
    await relay.close();
    expect(network.boundSockets).toBe(before - 2); // the listening socket and the one mapping's
  });
});
