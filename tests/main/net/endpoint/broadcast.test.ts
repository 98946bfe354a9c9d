import { afterEach, describe, expect, it } from 'vitest';
import {
  Channel,
  Client,
  PayloadTooLargeError,
  Server,
  compactJsonSerializer,
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
});
