import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Server, type ServerOptions } from '../../main/net/index';
import { ReservedType } from '../../main/net/v1/protocol';
import { compactJsonSerializer } from '../../main/net/v1/serialization';
import { encodeDisconnectFrame, encodeFragmentFrame } from '../../main/net/native/nativeFrames';
import { MAX_UNRELIABLE_MESSAGE } from '../../main/net/native/nativeConnection';
import { Frame, Native } from '../../main/net/native/nativeWire';
import { connectionSizes } from '../support/labInspect';
import { messageFrame, nativeDatagram, nativePeer, type NativePeer, type OfferFields } from '../support/labNativePeer';
import { rawPeer } from '../support/labRawPeer';
import { sleep, waitFor } from '../support/waitFor';

// Abuse only the native protocol has room for: frames, fragments, and the token in every datagram.

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Body bytes per fragment at the default MTU: 1200 − header 13 − tag 8 − the frame's worst-case overhead 22. */
const PIECE = 1157;

async function listen(options: Partial<ServerOptions> = {}) {
  const server = await Server.listen({ port: 0, host: '127.0.0.1', ...options });
  cleanups.push(() => server.close());
  const reasons = new Map<number, string>();
  server.onDisconnect((p, reason) => reasons.set(p.id, reason));
  return { server, reasons };
}

async function connected(server: Server, host?: string): Promise<NativePeer> {
  const raw = await nativePeer(server.port, host);
  cleanups.push(() => raw.close());
  await raw.handshake();
  expect(server.getPeer(raw.peerId!)?.protocol).toBe('native');
  return raw;
}

const piece = (n: number, fill = 0x2e) => new Uint8Array(n).fill(fill);

async function nativePeerWith(server: Server, offer: OfferFields): Promise<NativePeer> {
  const raw = await nativePeer(server.port, '127.0.0.1', { offer });
  cleanups.push(() => raw.close());
  await raw.handshake();
  expect(raw.accepted).toMatchObject(offer);
  return raw;
}

/** Fragments `first..first+count-1` of message `id` (count `of`), each `size` bytes, one datagram each. */
function sendFragments(raw: NativePeer, channel: number, id: number, indexes: number[], of: number, size = PIECE) {
  for (const index of indexes) {
    const seq = channel === 1 || channel === 2 ? id + index : id; // reliable: a unit per fragment
    raw.sendFrames([encodeFragmentFrame(channel, seq, index, of, piece(size))]);
  }
}

describe('abuse (native): tokens and sources', () => {
  it('a DISCONNECT frame with a wrong token is ignored; with the peer’s token it ends the session with its reason', async () => {
    const { server, reasons } = await listen();
    const raw = await connected(server);
    const peer = server.getPeer(raw.peerId!)!;
    for (const token of [0n, raw.token ^ 1n, raw.token ^ (1n << 63n), (1n << 64n) - 1n])
      raw.sendFrames([encodeDisconnectFrame('spoofed')], token);
    await waitFor(() => peer.connection.counters.dropped['bad-token'] === 4, 2000, 'the spoofed goodbyes');
    await sleep(50);
    expect(server.getPeers()).toHaveLength(1);
    raw.sendFrames([messageFrame(1, 0, 'o', { i: 0 }), encodeDisconnectFrame('bye now')]);
    await waitFor(() => reasons.has(raw.peerId!), 2000, 'the real goodbye');
    expect(reasons.get(raw.peerId!)).toBe('disconnected by the other side: bye now');
    expect(server.getPeers()).toHaveLength(0);
  });

  it('a native datagram from an address with no peer, or to a v1 peer, is dropped and counted; v1 from a native peer too', async () => {
    const { server } = await listen();
    const raw = await connected(server);
    const peer = server.getPeer(raw.peerId!)!;
    const v1 = await rawPeer(server.port, '127.0.0.3');
    cleanups.push(() => v1.close());
    await v1.handshake();
    expect(server.getPeer(v1.peerId!)?.protocol).toBe('v1');
    const stranger = createSocket('udp4');
    cleanups.push(() => stranger.close());
    await new Promise<void>((r) => stranger.bind(0, '127.0.0.4', r));
    let delivered = 0;
    server.onMessage('o', () => delivered++);
    let migrations = 0;
    server.onMigrate(() => migrations++);
    const before = { ...server.counters.dropped };
    const counters = peer.connection.counters;
    const frames = [messageFrame(1, 0, 'o', { i: 0 })];
    // Nobody's token, from elsewhere: nobody's datagram.
    for (let i = 0; i < 10; i++) stranger.send(nativeDatagram(raw.token ^ 1n, frames), server.port, '127.0.0.1');
    // The native peer's token from elsewhere names its connection (it may have moved), but without its key the
    // tag is wrong: dropped before any frame is read, nothing delivered, nobody challenged.
    for (let i = 0; i < 10; i++) stranger.send(nativeDatagram(raw.token, frames), server.port, '127.0.0.1');
    // Native framing with the v1 peer's token, from the v1 peer; v1 framing with the native token, from the native peer.
    for (let i = 0; i < 5; i++) v1.socket.send(nativeDatagram(v1.token, frames));
    for (let i = 0; i < 5; i++) raw.sendRaw(v1Datagram(raw.token));
    const grew = (reason: keyof typeof before) => server.counters.dropped[reason] - before[reason];
    await waitFor(
      () => grew('unknown-source') === 10 && grew('wrong-protocol') === 10 && counters.dropped['bad-tag'] === 10,
      2000,
      'the drops',
    );
    expect(delivered).toBe(0);
    // The peer's own sealed datagram, delivered once; the same bytes replayed from elsewhere: dropped as replays.
    const real = raw.seal(frames);
    raw.sendRaw(real);
    await waitFor(() => delivered === 1, 2000, 'the real message');
    for (let i = 0; i < 5; i++) stranger.send(real, server.port, '127.0.0.1');
    await waitFor(() => counters.dropped.replayed === 5, 2000, 'the replays');
    expect(delivered).toBe(1);
    expect(migrations).toBe(0);
    expect(peer.endpoint).toBe(`127.0.0.1:${raw.socket.address().port}`);
    expect(server.getPeers()).toHaveLength(2);
  });
});

function v1Datagram(token: bigint): Uint8Array {
  const head = Buffer.alloc(21);
  head[0] = 1;
  head.writeBigUInt64BE(token, 1);
  return Buffer.concat([head, compactJsonSerializer.serialize('o', { i: 0 })]);
}

describe('abuse (native): fragment bombs', () => {
  it('many partial unreliable messages: a bounded number held, the rest refused, all expire; whole ones still arrive', async () => {
    const { server } = await listen();
    const raw = await connected(server);
    const peer = server.getPeer(raw.peerId!)!;
    const got: number[] = [];
    server.onMessage('big', (_p, m) => got.push(m.i as number));
    const counters = peer.connection.counters;
    // 200 messages' first fragments on each unreliable channel: never completed.
    for (const channel of [Channel.UNRELIABLE, Channel.UNRELIABLE_SEQUENCED]) {
      for (let id = 1; id <= 200; id++) sendFragments(raw, channel, id, [0], 10, 500);
    }
    await waitFor(() => counters.datagramsReceived >= 400, 3000, 'the fragments');
    const held = connectionSizes(peer.connection).reassemblyBytes;
    // At most 64 partial messages per channel are kept; the others were refused and counted.
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(2 * 64 * 500);
    expect(counters.dropped['bad-fragment']).toBe(400 - held / 500);
    // Unreliable partials expire (after 1 s): nothing stays.
    await waitFor(() => connectionSizes(peer.connection).reassemblyBytes === 0, 3000, 'partials to expire');
    // A whole fragmented message still arrives on both channels.
    const body = compactJsonSerializer.serialize('big', { i: 7, s: 'x'.repeat(2500) });
    const pieces = [body.subarray(0, PIECE), body.subarray(PIECE, 2 * PIECE), body.subarray(2 * PIECE)];
    for (const [channel, id] of [
      [Channel.UNRELIABLE, 500],
      [Channel.UNRELIABLE_SEQUENCED, 500],
    ] as const) {
      pieces.forEach((p, index) => raw.sendFrames([encodeFragmentFrame(channel, id, index, 3, p)]));
    }
    await waitFor(() => got.length === 2, 2000, 'the whole messages');
    expect(got).toEqual([7, 7]);
    expect(server.getPeers()).toHaveLength(1);
  });

  it('unreliable fragments beyond the count limit or the byte budget are refused, the budget never exceeded', async () => {
    const { server } = await listen();
    const raw = await connected(server);
    const peer = server.getPeer(raw.peerId!)!;
    const counters = peer.connection.counters;
    // A count no unreliable message (≤ 64 KiB) can need, and the largest varint: refused before any allocation.
    sendFragments(raw, Channel.UNRELIABLE, 1, [0, 1], 1000);
    sendFragments(raw, Channel.UNRELIABLE, 2, [0, 5], 2 ** 32 - 1);
    await waitFor(() => counters.dropped['bad-fragment'] === 4, 2000, 'over-count fragments refused');
    expect(connectionSizes(peer.connection).reassemblyBytes).toBe(0);
    // Six 56-piece partial messages (≈ 393 KB) against the unreliable budget of four whole messages (256 KiB).
    const budget = 4 * MAX_UNRELIABLE_MESSAGE;
    let maxHeld = 0;
    for (let id = 10; id < 16; id++) {
      sendFragments(raw, Channel.UNRELIABLE, id, [...Array(56).keys()], 57);
      await sleep(5);
      maxHeld = Math.max(maxHeld, connectionSizes(peer.connection).reassemblyBytes);
    }
    await waitFor(() => counters.datagramsReceived >= 4 + 6 * 56, 3000, 'the budget fragments');
    maxHeld = Math.max(maxHeld, connectionSizes(peer.connection).reassemblyBytes);
    expect(maxHeld).toBeLessThanOrEqual(budget);
    expect(maxHeld).toBeGreaterThan(budget - PIECE);
    expect(counters.dropped['bad-fragment']).toBe(4 + 6 * 56 - maxHeld / PIECE);
    expect(server.getPeers()).toHaveLength(1);
  });

  it('a reliable fragment with an impossible count ends the session with a reason, nothing allocated', async () => {
    const { server, reasons } = await listen();
    const raw = await connected(server);
    sendFragments(raw, Channel.RELIABLE_UNORDERED, 0, [0], 2 ** 32 - 1);
    await waitFor(() => reasons.has(raw.peerId!), 2000, 'the session to end');
    expect(reasons.get(raw.peerId!)).toBe('reliable message could not be reassembled (too-many-fragments)');
    await waitFor(() => raw.framesOf(Frame.DISCONNECT).length > 0, 2000, 'the goodbye');
  });

  // 16 KiB messages at most, so the reliable budget is one message's prefix plus a window of pieces (16 KiB + 4096 pieces).
  const small = { maxMessageSize: 16_384, reassemblyBytes: 16_384 };

  /**
   * One partial message per unit on RELIABLE_UNORDERED (each unit is piece 0 of 2 of its own message). With
   * `received` (the server's datagram count), each 64 wait until the server has read them: the pieces are raw
   * datagrams, never resent, and a host slower than the sender (a busy machine) would lose some in its socket's queue.
   */
  async function partials(
    raw: NativePeer,
    from: number,
    to: number,
    size: number,
    received?: () => number,
  ): Promise<void> {
    const before = received?.() ?? 0;
    for (let seq = from; seq < to; seq++) {
      raw.sendFrames([encodeFragmentFrame(Channel.RELIABLE_UNORDERED, seq, 0, 2, piece(size))]);
      if (seq % 64 !== 63) continue;
      if (received) {
        const sent = seq - from + 1;
        await waitFor(() => received() - before >= sent, 10_000, `the server to read ${sent} pieces`);
      } else await sleep(1); // keep the socket buffer from overflowing
    }
  }

  it('a window of partial reliable messages is held within the budget; one more ends the session with a reason', async () => {
    const { server, reasons } = await listen({ native: small });
    const raw = await nativePeerWith(server, { maxMessage: 16_384 });
    const peer = server.getPeer(raw.peerId!)!;
    const window = Native.SEND_WINDOW;
    await partials(raw, 0, window, PIECE, () => peer.connection.counters.datagramsReceived);
    await waitFor(() => peer.connection.counters.datagramsReceived >= window, 3000, 'a window of partials');
    expect(connectionSizes(peer.connection).reassemblyBytes).toBe(window * PIECE);
    expect(server.getPeers()).toHaveLength(1);
    await partials(raw, window, window + 1, PIECE);
    await waitFor(() => reasons.has(raw.peerId!), 2000, 'the session to end');
    expect(reasons.get(raw.peerId!)).toBe('reliable message could not be reassembled (too-many-messages)');
  });

  it('datagrams larger than the negotiated MTU are dropped whole: they cannot grow reassembly', async () => {
    const { server, reasons } = await listen({ native: small });
    const raw = await nativePeerWith(server, { maxMessage: 16_384 });
    const peer = server.getPeer(raw.peerId!)!;
    await partials(raw, 0, 64, 1400); // 1400-byte pieces: every datagram is over the 1200-byte MTU
    await waitFor(() => peer.connection.counters.dropped['too-long'] === 64, 2000, 'oversize datagrams dropped');
    expect(connectionSizes(peer.connection).reassemblyBytes).toBe(0);
    await partials(raw, 64, 65, PIECE); // a well-sized piece is still taken
    await waitFor(() => connectionSizes(peer.connection).reassemblyBytes === PIECE, 2000, 'a fitting piece held');
    expect(reasons.size).toBe(0);
    expect(server.getPeers()).toHaveLength(1);
  });
});

describe('abuse (native): the reserved types stay the transport’s', () => {
  it('a MESSAGE frame carrying a reserved v1 type is dropped, not acted on', async () => {
    const { server } = await listen();
    const raw = await connected(server);
    const peer = server.getPeer(raw.peerId!)!;
    const types = [ReservedType.DISCONNECT, ReservedType.CONNECT_REQUEST, ReservedType.PING, ReservedType.ACK];
    raw.sendFrames(types.map((type, k) => messageFrame(1, k, type, { id: 1 })));
    await waitFor(() => peer.connection.counters.dropped['bad-type'] === types.length, 2000, 'reserved types dropped');
    expect(server.getPeers()).toHaveLength(1);
  });
});
