import { afterEach, describe, expect, it } from 'vitest';
import {
  Channel,
  Client,
  PayloadTooLargeError,
  Server,
  compactJsonSerializer,
  createMemoryNetwork,
  type Serializer,
} from '../../../../main/net/index';
import { waitFor } from '../../../support/waitFor';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Compact JSON under its own name, counting what it serializes. */
function countingSerializer(): Serializer & { calls: string[] } {
  const calls: string[] = [];
  return {
    name: 'counting-json',
    calls,
    serialize: (type, payload) => {
      calls.push(type);
      return compactJsonSerializer.serialize(type, payload);
    },
    deserialize: compactJsonSerializer.deserialize,
  };
}

async function clients(port: number, options: ConstructorParameters<typeof Client>[0], n: number) {
  const out: Client[] = [];
  for (let i = 0; i < n; i++) {
    const client = new Client(options);
    cleanups.push(() => client.close());
    await client.connect('127.0.0.1', port);
    out.push(client);
  }
  return out;
}

describe('Server.broadcast', () => {
  it('serializes a message once for every native peer that shares the codec, once more for v1 peers', async () => {
    const serializer = countingSerializer();
    const server = await Server.listen({ port: 0, host: '127.0.0.1', serializer, native: { serializer } });
    cleanups.push(() => server.close());
    const natives = await clients(server.port, { serializer, native: { serializer } }, 3);
    const v1 = await clients(server.port, { serializer, native: false }, 1);
    expect(natives.map((c) => c.protocol)).toEqual(['native', 'native', 'native']);
    expect(v1[0]!.protocol).toBe('v1');
    const got: string[] = [];
    for (const c of [...natives, ...v1]) c.onMessage('news', (p) => got.push(p.text as string));
    serializer.calls.length = 0;
    expect(server.broadcast('news', { text: 'hi' }, { channel: Channel.RELIABLE_ORDERED })).toBe(true);
    // The same serializer object for v1 and native: one body serves all four peers.
    expect(serializer.calls.filter((t) => t === 'news')).toHaveLength(1);
    await waitFor(() => got.length === 4, 2000, 'all four peers');
  });

  it('serializes only for the codecs its recipients use', async () => {
    const v1Serializer = countingSerializer();
    const server = await Server.listen({ port: 0, host: '127.0.0.1', serializer: v1Serializer });
    cleanups.push(() => server.close());
    const natives = await clients(server.port, {}, 2); // native peers speak the JSON fallback, not the v1 codec
    const got: string[] = [];
    for (const c of natives) c.onMessage('news', (p) => got.push(p.text as string));
    v1Serializer.calls.length = 0;
    expect(server.broadcast('news', { text: 'hi' })).toBe(true);
    expect(v1Serializer.calls).toEqual([]);
    await waitFor(() => got.length === 2, 2000, 'both peers');
    expect(() => server.broadcast('news', { bad: 1n }, { exclude: [1, 2] })).toThrow(/not JSON-serializable/);
  });

  it('checks every recipient before sending: too big for a v1 peer means nobody gets it', async () => {
    const server = await Server.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => server.close());
    const [native] = await clients(server.port, {}, 1);
    const [v1] = await clients(server.port, { native: false }, 1);
    const got: number[] = [];
    native!.onMessage('big', () => got.push(1));
    v1!.onMessage('big', () => got.push(2));
    const big = { s: 'x'.repeat(5000) };
    expect(() => server.broadcast('big', big, { channel: Channel.RELIABLE_ORDERED })).toThrow(PayloadTooLargeError);
    // Without the v1 peer the same message goes, in fragments, to the native one.
    expect(server.broadcast('big', big, { channel: Channel.RELIABLE_ORDERED, exclude: [v1!.peerId!] })).toBe(true);
    await waitFor(() => got.length === 1, 2000, 'the native peer');
    expect(got).toEqual([1]);
  });

  it('fans one body out: each recipient gets one datagram carrying the same body bytes behind its own header; exclude holds', async () => {
    const network = createMemoryNetwork();
    const serializer = countingSerializer();
    const port = 4100;
    const server = await Server.listen({
      port,
      host: '127.0.0.1',
      openSocket: network.openSocket,
      native: { serializer },
    });
    cleanups.push(() => server.close());
    const plain = await clients(port, { openSocket: network.openSocket }, 4);
    const counted = await clients(port, { openSocket: network.openSocket, native: { serializer } }, 2);
    const everyone = [...plain, ...counted];
    expect(everyone.every((c) => c.protocol === 'native')).toBe(true);
    const got = new Map<number, number[]>();
    for (const c of everyone)
      c.onMessage('snap', (p) => got.set(c.peerId!, [...(got.get(c.peerId!) ?? []), p.n as number]));
    // Capture what the server sends from here on (nothing dropped).
    const sent = new Map<number, Uint8Array[]>();
    network.drop = (datagram, from, to) => {
      if (from.port === port) sent.set(to.port, [...(sent.get(to.port) ?? []), datagram.slice()]);
      return false;
    };
    serializer.calls.length = 0;
    const excluded = plain[1]!.peerId!;
    const payload = { n: 7, xs: [1.5, -2, 3] };
    expect(server.broadcast('snap', payload, { exclude: [excluded] })).toBe(true);
    // One serialization per codec in use, however many peers share it.
    expect(serializer.calls.filter((t) => t === 'snap')).toHaveLength(1);
    const recipients = everyone.filter((c) => c.peerId !== excluded);
    await waitFor(() => recipients.every((c) => got.get(c.peerId!)?.[0] === 7), 2000, 'every recipient');
    expect(got.has(excluded)).toBe(false);
    network.drop = undefined;
    const bodies = [compactJsonSerializer.serialize('snap', payload), serializer.serialize('snap', payload)];
    const carrying = (datagrams: Uint8Array[] | undefined) =>
      (datagrams ?? []).filter((d) => bodies.some((b) => Buffer.from(d).indexOf(Buffer.from(b)) >= 0));
    const byPeer = [...sent.values()].map(carrying).filter((ds) => ds.length > 0);
    // Exactly one datagram with the body per recipient (none to the excluded peer), each different: its own header.
    expect(byPeer.map((ds) => ds.length)).toEqual(recipients.map(() => 1));
    const datagrams = byPeer.map((ds) => Buffer.from(ds[0]!).toString('hex'));
    expect(new Set(datagrams).size).toBe(recipients.length);
  });
});
