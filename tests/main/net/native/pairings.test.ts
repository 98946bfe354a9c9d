import { createSocket, type RemoteInfo } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Channel,
  Client,
  PayloadTooLargeError,
  Server,
  compactJsonSerializer,
  jsonSerializer,
  type EndpointOptions,
  type Serializer,
  type ServerOptions,
} from '../../../../main/net/index';
import { Wire } from '../../../../main/net/v1/protocol';
import { isNativeDatagram } from '../../../../main/net/native/wire/nativePacket';
import { Native } from '../../../../main/net/native/wire/nativeWire';
import { GaleReferencePeer, hasPython } from '../../../support/galeReferencePeer';
import { startTapRelay, type TapRelay } from '../../../support/labTapRelay';
import { waitFor } from '../../../support/waitFor';

const V1_CHANNELS = [Channel.UNRELIABLE, Channel.RELIABLE_ORDERED, Channel.RELIABLE_UNORDERED] as const;
const ALL_CHANNELS = [...V1_CHANNELS, Channel.UNRELIABLE_SEQUENCED] as const;
const N = 10;

/** Everything a test started, stopped afterwards whatever happened. */
const started: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
});

async function server(options: Partial<ServerOptions> = {}): Promise<Server> {
  const s = await Server.listen({ port: 0, host: '127.0.0.1', ...options });
  started.push({ stop: () => s.close() });
  return s;
}

function client(options: EndpointOptions = {}): Client {
  const c = new Client(options);
  started.push({ stop: () => c.close() });
  return c;
}

async function relay(port: number): Promise<TapRelay> {
  const r = await startTapRelay(port);
  started.push({ stop: () => r.close() });
  return r;
}

/** A one-client loopback relay that drops server → client datagrams `drop` picks. */
async function filterRelay(serverPort: number, drop: (d: Buffer) => boolean): Promise<number> {
  const front = createSocket('udp4');
  const back = createSocket('udp4');
  let from: RemoteInfo | undefined;
  front.on('message', (d, rinfo) => {
    from = rinfo;
    back.send(d, serverPort, '127.0.0.1');
  });
  back.on('message', (d) => {
    if (from && !drop(d)) front.send(d, from.port, from.address);
  });
  await Promise.all([front, back].map((s) => new Promise<void>((r) => s.bind(0, '127.0.0.1', r))));
  started.push({
    stop: async () => {
      front.close();
      back.close();
    },
  });
  return front.address().port;
}

async function standIn(start: Promise<GaleReferencePeer>): Promise<GaleReferencePeer> {
  const peer = await start;
  started.push(peer);
  return peer;
}

/** The reserved type and payload of a v1 datagram; undefined for native ones. */
function v1Message(d: Uint8Array): { type: string; payload: Record<string, unknown> } | undefined {
  return isNativeDatagram(d) ? undefined : jsonSerializer.deserialize(d.subarray(Wire.HEADER_SIZE));
}
const ofType = (datagrams: Uint8Array[], type: string) => datagrams.map(v1Message).filter((m) => m?.type === type);

/** Sends N messages per channel: `{ i, channel }`. */
function sendAll(send: (type: string, payload: Record<string, unknown>, channel: Channel) => void, type: string) {
  for (let i = 0; i < N; i++) for (const channel of ALL_CHANNELS) send(type, { i, channel }, channel);
}

/** `[channel, i]` pairs of received payloads, sorted for comparison. */
const pairsOf = (payloads: Array<Record<string, unknown>>) =>
  payloads.map((p) => [p.channel as number, p.i as number]).sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!);
const expected = (channels: readonly Channel[]) =>
  channels.flatMap((c) => Array.from({ length: N }, (_, i) => [c, i])).sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!);

/** Collects one message type's payloads on our server and on our client. */
function collect(s: Server, c: Client, type: string) {
  const got = { server: [] as Array<Record<string, unknown>>, client: [] as Array<Record<string, unknown>> };
  s.onMessage(type, (_peer, p) => got.server.push(p));
  c.onMessage(type, (p) => got.client.push(p));
  return got;
}

describe('pairing 1: our Client ↔ our Server', () => {
  it('negotiates native with exactly one challenge; all four channels flow both ways', async () => {
    const s = await server();
    const tap = await relay(s.port);
    const c = client();
    const got = collect(s, c, 'm');
    await c.connect('127.0.0.1', tap.port);
    expect(c.protocol).toBe('native');
    expect(s.getPeers().map((p) => p.protocol)).toEqual(['native']);
    sendAll((t, p, ch) => c.send(t, p, ch), 'm');
    sendAll((t, p, ch) => s.broadcast(t, p, { channel: ch }), 'm');
    await waitFor(() => got.server.length === 4 * N && got.client.length === 4 * N, 5000, 'messages both ways');
    expect(pairsOf(got.server)).toEqual(expected(ALL_CHANNELS));
    expect(pairsOf(got.client)).toEqual(expected(ALL_CHANNELS));
    // ordered stays ordered
    const ordered = got.client.filter((p) => p.channel === Channel.RELIABLE_ORDERED).map((p) => p.i);
    expect(ordered).toEqual([...Array(N).keys()]);
    const down = tap.captured.downstream;
    expect(ofType(down, '__native_challenge__')).toHaveLength(1);
    const accepts = ofType(down, '__connect_accepted__');
    expect(accepts.length).toBeGreaterThanOrEqual(1);
    expect(accepts[0]!.payload).toMatchObject({
      peer_id: 1,
      native: { version: Native.VERSION, mtu: 1200, codec: 'json' },
    });
    const requests = ofType(tap.captured.upstream, '__connect_request__');
    expect(requests.map((r) => 'cookie' in (r!.payload.native as object))).toEqual([false, true]);
    // after the handshake, only native datagrams
    const afterAccept = down.slice(down.findIndex((d) => v1Message(d)?.type === '__connect_accepted__') + 1);
    expect(afterAccept.length).toBeGreaterThan(0);
    expect(afterAccept.every(isNativeDatagram)).toBe(true);
  });

  it('speaks v1 when our Client has native off: no offer, no challenge', async () => {
    const s = await server();
    const tap = await relay(s.port);
    const c = client({ native: false });
    const got = collect(s, c, 'm');
    await c.connect('127.0.0.1', tap.port);
    expect(c.protocol).toBe('v1');
    expect(s.getPeers()[0]!.protocol).toBe('v1');
    expect(ofType(tap.captured.upstream, '__connect_request__')[0]!.payload).toEqual({});
    expect(ofType(tap.captured.downstream, '__native_challenge__')).toHaveLength(0);
    sendAll((t, p, ch) => c.send(t, p, ch), 'm');
    sendAll((t, p, ch) => s.broadcast(t, p, { channel: ch }), 'm');
    await waitFor(() => got.server.length === 4 * N && got.client.length === 4 * N, 5000, 'v1 messages');
    expect([...tap.captured.upstream, ...tap.captured.downstream].some(isNativeDatagram)).toBe(false);
  });

  it('speaks v1 when our Server has native off: the offer is ignored, a plain accept, no challenge', async () => {
    const s = await server({ native: false });
    const tap = await relay(s.port);
    const c = client();
    const got = collect(s, c, 'm');
    await c.connect('127.0.0.1', tap.port);
    expect(c.protocol).toBe('v1');
    expect(s.getPeers()[0]!.protocol).toBe('v1');
    const requests = ofType(tap.captured.upstream, '__connect_request__');
    expect(requests[0]!.payload).toHaveProperty('native');
    expect(ofType(tap.captured.downstream, '__native_challenge__')).toHaveLength(0);
    expect(ofType(tap.captured.downstream, '__connect_accepted__')[0]!.payload).toEqual({ peer_id: 1 });
    sendAll((t, p, ch) => c.send(t, p, ch), 'm');
    sendAll((t, p, ch) => s.broadcast(t, p, { channel: ch }), 'm');
    await waitFor(() => got.server.length === 4 * N && got.client.length === 4 * N, 5000, 'v1 messages');
    expect([...tap.captured.upstream, ...tap.captured.downstream].some(isNativeDatagram)).toBe(false);
  });
});

describe('native handshake under loss', () => {
  it.each(['__native_challenge__', '__connect_accepted__'])('recovers when the first %s is lost', async (lost) => {
    const s = await server();
    let dropped = 0;
    const port = await filterRelay(s.port, (d) => v1Message(d)?.type === lost && dropped++ === 0);
    const c = client();
    await c.connect('127.0.0.1', port, { timeout: 3 });
    expect(dropped).toBeGreaterThanOrEqual(2);
    expect(c.protocol).toBe('native');
    expect(s.getPeers()).toHaveLength(1); // the repeated request found the same peer
    const got: unknown[] = [];
    s.onMessage('m', (_p, payload) => got.push(payload));
    c.send('m', { ok: true }, Channel.RELIABLE_ORDERED);
    await waitFor(() => got.length === 1, 3000, 'a message after the handshake');
  });
});

describe('codec negotiation', () => {
  /** Compact JSON behind a one-byte marker, counting its use: a codec only these tests have. */
  function markedCodec(name: string) {
    const calls = { serialize: 0, deserialize: 0 };
    const codec: Serializer = {
      name,
      serialize(type, payload) {
        calls.serialize += 1;
        const json = compactJsonSerializer.serialize(type, payload);
        const out = new Uint8Array(json.byteLength + 1);
        out[0] = 0x58; // 'X'
        out.set(json, 1);
        return out;
      },
      deserialize(body) {
        calls.deserialize += 1;
        if (body[0] !== 0x58) throw new Error('not a marked body');
        return compactJsonSerializer.deserialize(body.subarray(1));
      },
    };
    return { codec, calls };
  }

  it('falls back to json when the server does not have the offered codec', async () => {
    const s = await server();
    const tap = await relay(s.port);
    const { codec, calls } = markedCodec('x-marked');
    const c = client({ native: { serializer: codec } });
    const got = collect(s, c, 'm');
    await c.connect('127.0.0.1', tap.port);
    expect(c.protocol).toBe('native');
    const offer = ofType(tap.captured.upstream, '__connect_request__')[0]!.payload.native;
    expect(offer).toMatchObject({ codec: 'x-marked' });
    const accept = ofType(tap.captured.downstream, '__connect_accepted__')[0]!.payload.native;
    expect(accept).toMatchObject({ codec: 'json' });
    c.send('m', { i: 0, channel: 1 }, Channel.RELIABLE_ORDERED);
    s.broadcast('m', { i: 0, channel: 1 }, { channel: Channel.RELIABLE_ORDERED });
    await waitFor(() => got.server.length === 1 && got.client.length === 1, 3000, 'json messages');
    expect(calls).toEqual({ serialize: 0, deserialize: 0 });
  });

  it('uses the offered codec when both ends have it', async () => {
    const serverSide = markedCodec('x-marked');
    const clientSide = markedCodec('x-marked');
    const s = await server({ native: { serializer: serverSide.codec } });
    const tap = await relay(s.port);
    const c = client({ native: { serializer: clientSide.codec } });
    const got = collect(s, c, 'm');
    await c.connect('127.0.0.1', tap.port);
    expect(ofType(tap.captured.downstream, '__connect_accepted__')[0]!.payload.native).toMatchObject({
      codec: 'x-marked',
    });
    c.send('m', { i: 0, channel: 1 }, Channel.RELIABLE_ORDERED);
    s.broadcast('m', { i: 0, channel: 1 }, { channel: Channel.RELIABLE_ORDERED });
    await waitFor(() => got.server.length === 1 && got.client.length === 1, 3000, 'marked messages');
    expect(clientSide.calls.serialize).toBeGreaterThan(0);
    expect(clientSide.calls.deserialize).toBeGreaterThan(0);
    expect(serverSide.calls.serialize).toBeGreaterThan(0);
    expect(serverSide.calls.deserialize).toBeGreaterThan(0);
  });

  it('the smaller MTU of the two ends bounds every datagram, both ways', async () => {
    const s = await server({ native: { mtu: 600 } });
    const tap = await relay(s.port);
    const c = client({ native: { mtu: 1472 } });
    const got = collect(s, c, 'm');
    await c.connect('127.0.0.1', tap.port);
    expect(ofType(tap.captured.downstream, '__connect_accepted__')[0]!.payload.native).toMatchObject({ mtu: 600 });
    const big = { s: 'y'.repeat(20_000) };
    c.send('m', big, Channel.RELIABLE_ORDERED);
    c.send('m', big, Channel.UNRELIABLE);
    s.broadcast('m', big, { channel: Channel.RELIABLE_UNORDERED });
    s.broadcast('m', big, { channel: Channel.UNRELIABLE_SEQUENCED });
    await waitFor(() => got.server.length === 2 && got.client.length === 2, 3000, 'fragmented messages');
    const native = [...tap.captured.upstream, ...tap.captured.downstream].filter(isNativeDatagram);
    expect(native.length).toBeGreaterThan(4 * 34); // 20 kB in ≤ 569-byte pieces, four times
    const largest = Math.max(...native.map((d) => d.byteLength));
    expect(largest).toBeLessThanOrEqual(600);
    expect(largest).toBeGreaterThan(550); // fragments fill the negotiated size, not some smaller one
  });

  it('the smaller maxMessageSize of the two ends limits both', async () => {
    const s = await server({ native: { maxMessageSize: 64 * 1024 } });
    const c = client({ native: { maxMessageSize: 4 * 1024 * 1024 } });
    const got = collect(s, c, 'm');
    await c.connect('127.0.0.1', s.port);
    expect(() => c.send('m', { s: 'x'.repeat(100_000) }, Channel.RELIABLE_ORDERED)).toThrow(PayloadTooLargeError);
    expect(() => s.broadcast('m', { s: 'x'.repeat(100_000) }, { channel: Channel.RELIABLE_ORDERED })).toThrow(
      /at most 65536 bytes/,
    );
    c.send('m', { s: 'x'.repeat(60_000) }, Channel.RELIABLE_ORDERED);
    await waitFor(() => got.server.length === 1, 3000, 'a message within the limit');
    expect(c.state).toBe('connected');
  });
});

describe.skipIf(!hasPython)('pairings with the Python gale.net v1 stand-in', () => {
  it('pairing 2: our Client ↔ Python server speaks v1, messages both ways', async () => {
    const py = await standIn(GaleReferencePeer.server());
    const c = client();
    const got: Array<Record<string, unknown>> = [];
    c.onMessage('s2c', (p) => got.push(p));
    await c.connect('127.0.0.1', py.port);
    expect(c.protocol).toBe('v1');
    expect(c.peerId).toBe(1);
    sendAll((t, p, ch) => c.send(t, p, ch), 'c2s');
    for (let i = 0; i < N; i++) for (const channel of V1_CHANNELS) py.send('s2c', { i, channel }, channel);
    await py.waitFor(() => py.messages('c2s').length === 4 * N, 5000, 'messages from our client');
    await waitFor(() => got.length === 3 * N, 5000, 'messages from the stand-in');
    // UNRELIABLE_SEQUENCED has no v1 form: it travels as UNRELIABLE
    const seen = py.messages('c2s').map((m) => [m.payload.channel, m.channel]);
    expect(seen.filter(([sent]) => sent === 3).every(([, wire]) => wire === 0)).toBe(true);
    const ordered = py.messages('c2s').filter((m) => m.channel === 1);
    expect(ordered.map((m) => m.payload.i)).toEqual([...Array(N).keys()]);
    expect(pairsOf(got)).toEqual(expected(V1_CHANNELS));
    expect(c.connectionCounters?.dropped['wrong-protocol']).toBe(0);
    const stats = await py.stats();
    expect(Object.keys(stats.first_bytes).every((b) => ['0', '1', '2'].includes(b))).toBe(true);
    expect(stats.peers).toEqual([1]);
  });

  it('pairing 3: Python client ↔ our Server speaks v1, and the client only ever sees v1 datagrams', async () => {
    const s = await server();
    const got: Array<Record<string, unknown>> = [];
    s.onMessage('c2s', (_peer, p) => got.push(p));
    const py = await standIn(GaleReferencePeer.client('127.0.0.1', s.port));
    const connected = await py.waitForEvent('connected', 5000);
    expect(connected.peer).toBe(1);
    await waitFor(() => s.getPeers().length === 1, 2000, 'the peer');
    const peer = s.getPeers()[0]!;
    expect(peer.protocol).toBe('v1');
    expect(String(peer.token)).toBe(connected.token);
    for (let i = 0; i < N; i++) for (const channel of V1_CHANNELS) py.send('c2s', { i, channel }, channel);
    sendAll((t, p, ch) => s.sendTo(peer.id, t, p, ch), 's2c');
    await waitFor(() => got.length === 3 * N, 5000, 'messages from the stand-in');
    await py.waitFor(() => py.messages('s2c').length === 4 * N, 5000, 'messages from our server');
    expect(pairsOf(got)).toEqual(expected(V1_CHANNELS));
    const ordered = py.messages('s2c').filter((m) => m.channel === 1);
    expect(ordered.map((m) => m.payload.i)).toEqual([...Array(N).keys()]);
    // let heartbeats and acks run a little, then look at everything the client received
    await new Promise((r) => setTimeout(r, 1200));
    const stats = await py.stats();
    expect(stats.datagrams).toBeGreaterThan(4 * N);
    expect(Object.keys(stats.first_bytes).sort()).toEqual(['0', '1', '2']);
    expect(stats.dropped).toBe(0);
    expect(stats.rtt['1']).toBeGreaterThan(0); // our server answered its pings
    expect(s.getPeer(1)?.rtt).toBeGreaterThan(0); // and it answered ours
  });

  it('pairing 4: Python client ↔ Python server interoperate (the v1 baseline)', async () => {
    const pyServer = await standIn(GaleReferencePeer.server());
    const pyClient = await standIn(GaleReferencePeer.client('127.0.0.1', pyServer.port));
    await pyClient.waitForEvent('connected', 5000);
    await pyServer.waitForEvent('connected', 5000);
    for (let i = 0; i < N; i++) {
      for (const channel of V1_CHANNELS) {
        pyClient.send('c2s', { i, channel }, channel);
        pyServer.send('s2c', { i, channel }, channel);
      }
    }
    await pyServer.waitFor(() => pyServer.messages('c2s').length === 3 * N, 5000, 'client → server');
    await pyClient.waitFor(() => pyClient.messages('s2c').length === 3 * N, 5000, 'server → client');
    expect(pairsOf(pyServer.messages('c2s').map((m) => m.payload))).toEqual(expected(V1_CHANNELS));
    expect(pairsOf(pyClient.messages('s2c').map((m) => m.payload))).toEqual(expected(V1_CHANNELS));
    const clientStats = await pyClient.stats();
    expect(clientStats.dropped).toBe(0);
  });

  it('our Server notices a Python client leave, and our Client a Python server leave', async () => {
    const s = await server();
    const left: string[] = [];
    s.onDisconnect((_p, reason) => left.push(reason));
    const py = await standIn(GaleReferencePeer.client('127.0.0.1', s.port));
    await py.waitForEvent('connected');
    py.disconnect();
    await waitFor(() => left.length === 1, 3000, 'the server to notice');
    expect(left[0]).toMatch(/disconnected by the other side/);

    const pyServer = await standIn(GaleReferencePeer.server());
    const c = client();
    const reasons: string[] = [];
    c.onDisconnect((r) => reasons.push(r));
    await c.connect('127.0.0.1', pyServer.port);
    await pyServer.waitForEvent('connected');
    pyServer.disconnect(1);
    await waitFor(() => reasons.length === 1, 3000, 'the client to notice');
    expect(c.state).toBe('idle');
  });
});
