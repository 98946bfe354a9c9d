import { describe, expect, it } from 'vitest';
import { Channel } from '../../../../shared/net/channel';
import { PayloadTooLargeError } from '../../../../main/net/errors';
import { compactJsonSerializer } from '../../../../main/net/v1/serialization';
import { DropReason } from '../../../../main/net/v1/stats';
import { MAX_UNRELIABLE_MESSAGE, NativeConnection } from '../../../../main/net/native/nativeConnection';
import {
  encodeDisconnectFrame,
  encodeIdFrame,
  encodeMessageFrame,
  type NativeFrame,
} from '../../../../main/net/native/wire/nativeFrames';
import { parseNativePacket } from '../../../../main/net/native/wire/nativePacket';
import type { NativeOutbox } from '../../../../main/net/native/delivery/nativeOutbox';
import { Frame, Native } from '../../../../main/net/native/wire/nativeWire';
import {
  nativeDatagram as datagram,
  sealDatagram,
  TEST_KEYS_A,
  TEST_KEYS_B,
  testSealer,
} from '../../../support/nativeDatagram';
import { NativePair, text, TOKEN } from '../../../support/nativePair';

// A plain Uint8Array copy, so parsed bodies compare equal to plain expected ones (sent datagrams are Buffers).
const framesOf = (d: Uint8Array): NativeFrame[] => parseNativePacket(new Uint8Array(d)).frames;
const kinds = (datagrams: Uint8Array[]) => datagrams.flatMap((d) => framesOf(d).map((f) => f.kind));
const hasFrame = (d: Uint8Array, kind: Frame, channel?: number) =>
  framesOf(d).some((f) => f.kind === kind && (channel === undefined || ('channel' in f && f.channel === channel)));

const ALL_CHANNELS = [
  Channel.UNRELIABLE,
  Channel.RELIABLE_ORDERED,
  Channel.RELIABLE_UNORDERED,
  Channel.UNRELIABLE_SEQUENCED,
];

describe('NativeConnection channels', () => {
  it('delivers on all four channels, both ways, reporting the channel', () => {
    const pair = new NativePair();
    for (const channel of ALL_CHANNELS) {
      for (let i = 0; i < 5; i++) {
        pair.send('a', 'ab', { i, channel }, channel);
        pair.send('b', 'ba', { i, channel }, channel);
      }
    }
    pair.run(0.1);
    for (const [side, type] of [
      ['b', 'ab'],
      ['a', 'ba'],
    ] as const) {
      for (const channel of ALL_CHANNELS) {
        const got = pair.received[side].filter(([t, p]) => t === type && p.channel === channel);
        expect(got.map(([, p]) => p.i)).toEqual([0, 1, 2, 3, 4]);
        expect(got.every(([, , c]) => c === channel)).toBe(true);
      }
    }
    expect(pair.closed).toEqual({ a: undefined, b: undefined });
  });

  it('UNRELIABLE_SEQUENCED drops a message older than the newest delivered, counting it stale', () => {
    const pair = new NativePair({ loss: 1 }); // capture a's datagrams, deliver them by hand
    for (let i = 1; i <= 3; i++) {
      pair.send('a', 's', { i }, Channel.UNRELIABLE_SEQUENCED);
      pair.a.flushAcks();
    }
    const [d1, d2, d3] = pair.sent.a.filter((d) => hasFrame(d, Frame.MESSAGE, 3));
    for (const d of [d1!, d3!, d2!, d3!]) pair.inject('b', d);
    expect(pair.received.b.map(([, p]) => p.i)).toEqual([1, 3]);
    expect(pair.b.counters.dropped[DropReason.STALE]).toBe(2);
    // plain UNRELIABLE has no such filter
    pair.send('a', 'u', { i: 1 }, Channel.UNRELIABLE);
    pair.a.flushAcks();
    pair.inject('b', pair.sent.a.at(-1)!);
    pair.inject('b', pair.sent.a.at(-1)!);
    expect(pair.received.b.filter(([t]) => t === 'u')).toHaveLength(2);
  });

  it('UNRELIABLE_SEQUENCED stays in order under heavy reordering and drops only stale messages', () => {
    const pair = new NativePair({ latency: 0.05, jitter: 0.045 }, {}, 9);
    for (let i = 0; i < 300; i++) {
      pair.send('a', 's', { i }, Channel.UNRELIABLE_SEQUENCED);
      pair.run(0.005);
    }
    pair.run(0.2);
    const got = pair.received.b.map(([, p]) => p.i as number);
    expect(got.length + pair.b.counters.dropped[DropReason.STALE]).toBe(300);
    expect(got).toEqual([...got].sort((x, y) => x - y));
    expect(new Set(got).size).toBe(got.length);
    expect(pair.b.counters.dropped[DropReason.STALE]).toBeGreaterThan(10); // reordering really happened
  });
});

describe('NativeConnection large messages', () => {
  it.each([
    { name: 'RELIABLE_ORDERED', channel: Channel.RELIABLE_ORDERED },
    { name: 'RELIABLE_UNORDERED', channel: Channel.RELIABLE_UNORDERED },
  ])('a 1 MiB $name message arrives byte-identical under 10 percent loss and reordering', ({ channel }) => {
    const bad = { loss: 0.1, latency: 0.02, jitter: 0.015, duplicate: 0.02 };
    const pair = new NativePair(bad, bad, 17);
    const data = text(1024 * 1024, 3);
    pair.send('a', 'small', { i: 0 }, channel);
    pair.send('a', 'big', { data }, channel);
    pair.send('a', 'small', { i: 1 }, channel);
    pair.run(60, 0.005, () => pair.received.b.length === 3 && pair.a.pendingReliable === 0);
    expect(pair.closed).toEqual({ a: undefined, b: undefined });
    const big = pair.received.b.find(([t]) => t === 'big');
    expect(big?.[1].data === data).toBe(true); // byte-identical (toEqual would print a 1 MiB diff)
    if (channel === Channel.RELIABLE_ORDERED) {
      expect(pair.received.b.map(([t]) => t)).toEqual(['small', 'big', 'small']);
    }
    expect(pair.a.pendingReliable).toBe(0);
    expect(pair.a.counters.retransmits).toBeGreaterThan(0);
    expect(pair.b.reassemblyBufferedBytes).toBe(0);
    // no datagram exceeded the MTU
    expect(Math.max(...pair.sent.a.map((d) => d.byteLength))).toBeLessThanOrEqual(Native.DEFAULT_MTU);
  });

  it.each([
    ['UNRELIABLE', Channel.UNRELIABLE],
    ['UNRELIABLE_SEQUENCED', Channel.UNRELIABLE_SEQUENCED],
  ] as const)('a %s message larger than one datagram is fragmented and reassembled', (_name, channel) => {
    const pair = new NativePair();
    const data = text(20_000, 5);
    pair.send('a', 'big', { data }, channel);
    pair.run(0.05);
    const fragments = pair.sent.a.filter((d) => hasFrame(d, Frame.FRAGMENT, channel));
    expect(fragments.length).toBeGreaterThanOrEqual(17); // 20 kB in ≤ 1,169-byte pieces
    expect(pair.received.b).toHaveLength(1);
    expect(pair.received.b[0]![1].data === data).toBe(true);
    expect(pair.received.b[0]![2]).toBe(channel);
    expect(pair.a.counters.retransmits).toBe(0);
  });

  it.each([
    ['UNRELIABLE', Channel.UNRELIABLE],
    ['UNRELIABLE_SEQUENCED', Channel.UNRELIABLE_SEQUENCED],
  ] as const)('partial pieces of a lost %s fragment expire (about 1 s) and free their memory', (_name, channel) => {
    let fragmentsSeen = 0;
    const dropThird = (d: Uint8Array) => hasFrame(d, Frame.FRAGMENT) && ++fragmentsSeen === 3;
    const pair = new NativePair({ drop: dropThird });
    pair.send('a', 'big', { data: text(10_000, 7) }, channel);
    pair.run(0.05);
    expect(pair.received.b).toHaveLength(0);
    expect(pair.b.reassemblyBufferedBytes).toBeGreaterThan(5000);
    pair.run(0.9);
    expect(pair.b.reassemblyBufferedBytes).toBeGreaterThan(5000);
    pair.run(0.2);
    expect(pair.b.reassemblyBufferedBytes).toBe(0);
    // the next one gets through whole
    pair.send('a', 'big', { data: 'again' + text(10_000, 8) }, channel);
    pair.run(0.05);
    expect(pair.received.b.map(([t]) => t)).toEqual(['big']);
  });

  it('limits bodies: 64 KiB unreliable, 4 MiB reliable by default, PayloadTooLargeError beyond', () => {
    const pair = new NativePair();
    const c = pair.a;
    expect(c.maxBody(Channel.UNRELIABLE)).toBe(MAX_UNRELIABLE_MESSAGE);
    expect(c.maxBody(Channel.UNRELIABLE_SEQUENCED)).toBe(64 * 1024);
    expect(c.maxBody(Channel.RELIABLE_ORDERED)).toBe(4 * 1024 * 1024);
    expect(c.maxBody(Channel.RELIABLE_UNORDERED)).toBe(4 * 1024 * 1024);
    const overhead = compactJsonSerializer.serialize('m', { s: '' }).byteLength;
    const payload = (size: number) => ({ s: 'x'.repeat(size - overhead) });
    for (const channel of [Channel.UNRELIABLE, Channel.UNRELIABLE_SEQUENCED]) {
      expect(() => pair.send('a', 'm', payload(64 * 1024 + 1), channel)).toThrow(PayloadTooLargeError);
      expect(() => pair.send('a', 'm', payload(64 * 1024 + 1), channel)).toThrow(/at most 65536 bytes/);
      pair.send('a', 'm', payload(64 * 1024), channel); // exactly the limit is fine
    }
    for (const channel of [Channel.RELIABLE_ORDERED, Channel.RELIABLE_UNORDERED]) {
      expect(() => pair.send('a', 'm', payload(4 * 1024 * 1024 + 1), channel)).toThrow(PayloadTooLargeError);
    }
    // the connection itself refuses too, for callers that serialize on their own
    expect(() => c.sendBody(new Uint8Array(64 * 1024 + 1), Channel.UNRELIABLE)).toThrow(PayloadTooLargeError);
    expect(() => c.sendBody(new Uint8Array(4 * 1024 * 1024 + 1), Channel.RELIABLE_UNORDERED)).toThrow(
      PayloadTooLargeError,
    );
    expect(c.pendingReliable).toBe(0);
    pair.send('a', 'm', payload(4 * 1024 * 1024), Channel.RELIABLE_ORDERED);
    pair.run(30, 0.005, () => pair.received.b.length === 3 && pair.a.pendingReliable === 0);
    expect(pair.received.b.map(([, p]) => (p.s as string).length + overhead)).toEqual([
      64 * 1024,
      64 * 1024,
      4 * 1024 * 1024,
    ]);
    expect(pair.closed).toEqual({ a: undefined, b: undefined });
  });

  it('back-to-back unordered messages behind a hole fit even when reassemblyBytes equals maxMessageSize', () => {
    // A full window of later units may wait behind one lost unit: an honest stream must never hit the budget.
    const tight = { maxMessageSize: 256 * 1024, reassemblyBytes: 256 * 1024 };
    const bad = { loss: 0.1, latency: 0.02, jitter: 0.015 };
    const pair = new NativePair(bad, bad, 31, { a: tight, b: tight });
    const payloads = [1, 2, 3, 4].map((i) => ({ s: text(250_000, i) }));
    for (const p of payloads) pair.send('a', 'big', p, Channel.RELIABLE_UNORDERED);
    let peak = 0;
    pair.run(30, 0.005, () => {
      peak = Math.max(peak, pair.b.reassemblyBufferedBytes);
      return pair.received.b.length === 4 || pair.closed.b !== undefined;
    });
    expect(pair.closed).toEqual({ a: undefined, b: undefined });
    expect(peak).toBeGreaterThan(256 * 1024); // the scenario really outgrew the configured budget
    const got = pair.received.b.map(([, p]) => p.s as string).sort();
    expect(got.every((s, i) => s === payloads.map((p) => p.s).sort()[i])).toBe(true);
    expect(got).toHaveLength(4);
  });

  it('a smaller maxMessageSize lowers both limits', () => {
    const pair = new NativePair({}, {}, 1, { a: { maxMessageSize: 10_000 } });
    expect(pair.a.maxBody(Channel.RELIABLE_ORDERED)).toBe(10_000);
    expect(pair.a.maxBody(Channel.UNRELIABLE)).toBe(10_000);
    expect(() => pair.send('a', 'm', { s: 'x'.repeat(10_000) }, Channel.RELIABLE_ORDERED)).toThrow(
      PayloadTooLargeError,
    );
  });
});

describe('NativeConnection datagram checks', () => {
  it('drops datagrams with the wrong token, a DISCONNECT among them, counting BAD_TOKEN', () => {
    const pair = new NativePair();
    // Off in the low half only, in the high half only, and in both.
    for (const token of [0n, TOKEN ^ 1n, TOKEN ^ (1n << 40n), 2n ** 64n - 1n]) {
      const message = encodeMessageFrame(1, 0, compactJsonSerializer.serialize('evil', {}));
      pair.inject('b', datagram(token, message, encodeDisconnectFrame('spoofed')));
    }
    pair.inject('b', datagram(TOKEN ^ 2n, encodeDisconnectFrame('spoofed')));
    expect(pair.b.counters.dropped[DropReason.BAD_TOKEN]).toBe(5);
    expect(pair.b.counters.datagramsReceived).toBe(0);
    expect(pair.closed.b).toBeUndefined();
    expect(pair.received.b).toEqual([]);
    // the connection still works, and the real DISCONNECT closes it
    pair.send('a', 'ok', {}, Channel.RELIABLE_ORDERED);
    pair.run(0.05);
    expect(pair.received.b.map(([t]) => t)).toEqual(['ok']);
    pair.inject('b', datagram(TOKEN, encodeDisconnectFrame('real')));
    expect(pair.closed.b).toEqual({ reason: 'disconnected by the other side: real', kind: 'closed-by-peer' });
  });

  it('drops malformed datagrams whole (BAD_BODY), applying none of their frames', () => {
    const pair = new NativePair();
    const good = encodeMessageFrame(2, 0, compactJsonSerializer.serialize('n', {}));
    pair.inject('b', datagram(TOKEN, good, Uint8Array.of(0x09))); // a good frame, then an unknown kind
    pair.inject('b', datagram(TOKEN, good.subarray(0, 4))); // a frame cut short (sealed: authentic, but broken)
    pair.inject('b', datagram(TOKEN)); // no frame at all
    pair.inject('b', datagram(TOKEN).subarray(0, 5));
    expect(pair.b.counters.dropped[DropReason.BAD_BODY]).toBe(2);
    expect(pair.b.counters.dropped[DropReason.TOO_SHORT]).toBe(2);
    expect(pair.received.b).toEqual([]);
    pair.inject('b', datagram(TOKEN, good));
    expect(pair.received.b.map(([t]) => t)).toEqual(['n']);
  });

  it('drops reserved message types and undecodable bodies inside valid frames', () => {
    const pair = new NativePair();
    pair.inject('b', datagram(TOKEN, encodeMessageFrame(0, 0, compactJsonSerializer.serialize('__ping__', {}))));
    pair.inject('b', datagram(TOKEN, encodeMessageFrame(0, 0, Buffer.from('not json'))));
    expect(pair.b.counters.dropped[DropReason.BAD_TYPE]).toBe(1);
    expect(pair.b.counters.dropped[DropReason.BAD_BODY]).toBe(1);
    expect(pair.received.b).toEqual([]);
  });

  it('re-acknowledges a duplicate and delivers it once', () => {
    const pair = new NativePair({ loss: 1 });
    pair.send('a', 'n', { i: 1 }, Channel.RELIABLE_ORDERED);
    pair.a.flushAcks();
    const unit = pair.sent.a.find((d) => hasFrame(d, Frame.MESSAGE, 1))!;
    pair.inject('b', unit);
    pair.b.flushAcks();
    pair.inject('b', unit);
    pair.b.flushAcks();
    expect(pair.received.b).toHaveLength(1);
    expect(pair.b.counters.duplicatesReceived).toBe(1);
    const acks = pair.sent.b.flatMap(framesOf).filter((f) => f.kind === Frame.ACK);
    expect(acks).toEqual([
      { kind: Frame.ACK, channel: 1, next: 1, bitmap: new Uint8Array(0) },
      { kind: Frame.ACK, channel: 1, next: 1, bitmap: new Uint8Array(0) },
    ]);
    expect(pair.b.counters.acksSent).toBe(2);
    // nothing new arrived: no further ack
    pair.b.flushAcks();
    expect(pair.b.counters.acksSent).toBe(2);
  });

  it('counts out-of-window units and keeps going', () => {
    const pair = new NativePair();
    const body = compactJsonSerializer.serialize('n', {});
    pair.inject('b', datagram(TOKEN, encodeMessageFrame(1, Native.SEND_WINDOW + 5, body)));
    expect(pair.b.counters.dropped[DropReason.OUT_OF_WINDOW]).toBe(1);
    expect(pair.received.b).toEqual([]);
  });
});

describe('NativeConnection reliability and liveness', () => {
  it('retransmits a reliable message whose datagram was lost', () => {
    let dropped = 0;
    const dropFirstData = (d: Uint8Array) => hasFrame(d, Frame.MESSAGE, 1) && dropped++ === 0;
    const pair = new NativePair({ drop: dropFirstData, latency: 0.01 }, { latency: 0.01 });
    pair.send('a', 'n', { i: 1 }, Channel.RELIABLE_ORDERED);
    pair.run(1, 0.005, () => pair.received.b.length === 1 && pair.a.pendingReliable === 0);
    expect(dropped).toBe(2);
    expect(pair.received.b.map(([, p]) => p.i)).toEqual([1]);
    expect(pair.a.counters.retransmits).toBe(1);
    expect(pair.a.pendingReliable).toBe(0);
  });

  it('re-sends a lost unit once a newer one is acknowledged and its reorder allowance ran out, long before its timeout', () => {
    let seen = 0;
    const dropSecond = (d: Uint8Array) => hasFrame(d, Frame.MESSAGE, 2) && ++seen === 2;
    const slowTimeout = { a: { retransmit: { minRto: 1, maxRto: 2 } } };
    const pair = new NativePair({ drop: dropSecond, latency: 0.02 }, { latency: 0.02 }, 1, slowTimeout);
    pair.run(0.5); // RTT known: about 40 ms
    const start = pair.now;
    for (let i = 0; i < 6; i++) {
      pair.send('a', 'n', { i }, Channel.RELIABLE_UNORDERED);
      pair.run(0.01); // one unit per datagram
    }
    pair.run(0.5, 0.005, () => pair.received.b.length === 6);
    // Six units, the second sent twice: lost and re-sent. Their ~130 bytes leave no 15% budget for a copy in a
    // datagram of its own (its header and tag count); lossRecovery.test.ts covers copies.
    expect(seen).toBe(7);
    expect(pair.received.b).toHaveLength(6);
    expect(pair.a.counters.retransmits).toBe(1);
    expect(pair.a.counters.redundancyBytes).toBe(0);
    expect(pair.now - start).toBeLessThan(0.3); // the 1 s timeout never came into play
  });

  it('delivers 2,000 reliable messages per channel exactly once under loss, duplication and reordering', () => {
    const bad = { loss: 0.2, duplicate: 0.05, latency: 0.02, jitter: 0.01 };
    const pair = new NativePair(bad, bad, 23);
    for (let i = 0; i < 2000; i++) {
      pair.send('a', 'o', { i }, Channel.RELIABLE_ORDERED);
      pair.send('a', 'u', { i }, Channel.RELIABLE_UNORDERED);
    }
    pair.run(120, 0.005, () => pair.received.b.length === 4000 && pair.a.pendingReliable === 0);
    const of = (t: string) => pair.received.b.filter(([type]) => type === t).map(([, p]) => p.i as number);
    expect(of('o')).toEqual([...Array(2000).keys()]);
    expect([...of('u')].sort((x, y) => x - y)).toEqual([...Array(2000).keys()]);
    expect(pair.closed).toEqual({ a: undefined, b: undefined });
  });

  it('sends heartbeats and measures RTT on both sides', () => {
    const pair = new NativePair({ latency: 0.03 }, { latency: 0.03 });
    pair.run(3.5);
    for (const c of [pair.a, pair.b]) {
      expect(c.rtt.smoothed).toBeGreaterThan(0.055);
      expect(c.rtt.smoothed).toBeLessThan(0.075);
      expect(c.stats().rtt).toBe(c.rtt.smoothed);
    }
    const pings = kinds(pair.sent.a).filter((k) => k === Frame.PING).length;
    expect(pings).toBeGreaterThanOrEqual(3); // at 0, 1, 2, 3 s
    expect(pings).toBeLessThanOrEqual(4);
    expect(kinds(pair.sent.a).filter((k) => k === Frame.PONG)).toHaveLength(
      kinds(pair.sent.b).filter((k) => k === Frame.PING).length,
    );
  });

  it('answers a ping with a pong carrying the same id, and ignores unknown pongs', () => {
    const pair = new NativePair({ loss: 1 }, { loss: 1 });
    pair.inject('b', datagram(TOKEN, encodeIdFrame(Frame.PING, 123_456)));
    pair.flush();
    // b had not pinged yet, so its first ping rides the pong.
    expect(framesOf(pair.sent.b.at(-1)!)).toEqual([
      { kind: Frame.PONG, id: 123_456 },
      { kind: Frame.PING, id: 1 },
    ]);
    pair.inject('b', datagram(TOKEN, encodeIdFrame(Frame.PONG, 999)));
    expect(pair.b.rtt.smoothed).toBeUndefined();
  });

  it("a follower's pings ride its pongs: one datagram a second to the leader, RTT measured on both sides", () => {
    const pair = new NativePair({ latency: 0.03 }, { latency: 0.03 }, 1, { a: { followPeerPings: true } });
    pair.run(2.05);
    const before = pair.sent.a.length;
    pair.run(10);
    const steady = pair.sent.a.slice(before);
    expect(steady.length).toBeGreaterThanOrEqual(9);
    expect(steady.length).toBeLessThanOrEqual(11); // 20 with a ping and a pong of its own each second
    for (const d of steady) expect(framesOf(d).map((f) => f.kind)).toEqual([Frame.PONG, Frame.PING]);
    for (const c of [pair.a, pair.b]) {
      expect(c.rtt.smoothed).toBeGreaterThan(0.055);
      expect(c.rtt.smoothed).toBeLessThan(0.075);
    }
    expect(pair.closed.a).toBeUndefined();
    expect(pair.closed.b).toBeUndefined();
  });

  it('a follower whose peer stops pinging pings on its own timer and stays connected', () => {
    const quiet = { heartbeatInterval: 1000, timeout: 5 };
    const pair = new NativePair({ latency: 0.01 }, { latency: 0.01 }, 1, { a: { followPeerPings: true }, b: quiet });
    pair.run(10);
    const pings = kinds(pair.sent.a).filter((k) => k === Frame.PING).length;
    expect(pings).toBeGreaterThanOrEqual(10); // at 0, 1, …, 9 s (b pinged once, at 0)
    expect(pings).toBeLessThanOrEqual(11);
    expect(pair.b.rtt.smoothed).toBeGreaterThan(0);
    expect(pair.a.rtt.smoothed).toBeGreaterThan(0.015);
    expect(pair.closed.a).toBeUndefined();
    expect(pair.closed.b).toBeUndefined();
  });

  it('times out after `timeout` seconds of silence', () => {
    const pair = new NativePair({}, { loss: 1 });
    pair.run(4.9);
    expect(pair.closed.a).toBeUndefined();
    pair.run(0.3);
    expect(pair.closed.a).toEqual({ reason: 'timed out: nothing heard for 5 s', kind: 'timed-out' });
    expect(pair.closed.b).toBeUndefined(); // b still hears a
  });

  it('gives up on a peer that answers pings but never acknowledges, telling it why', () => {
    const noAcks = (d: Uint8Array) => hasFrame(d, Frame.ACK);
    const pair = new NativePair({}, { drop: noAcks });
    pair.send('a', 'n', {}, Channel.RELIABLE_ORDERED);
    pair.run(30, 0.01, () => pair.closed.a !== undefined);
    expect(pair.closed.a?.reason).toMatch(/not acknowledged after \d+ attempts/);
    expect(pair.now).toBeGreaterThan(5);
    pair.run(0.05);
    expect(pair.closed.b?.reason).toMatch(/^disconnected by the other side: reliable message not acknowledged/);
  });

  it('disconnect tells the other side with a reason in separate datagrams, then goes quiet', () => {
    const pair = new NativePair();
    pair.send('a', 'n', {}, Channel.UNRELIABLE); // waits in the writer: must leave first
    pair.a.disconnect('leaving now');
    const notices = pair.sent.a.filter((d) => hasFrame(d, Frame.DISCONNECT));
    expect(notices).toHaveLength(3);
    expect(pair.sent.a).toHaveLength(4);
    expect(pair.closed.a).toEqual({ reason: 'leaving now', kind: 'closed-locally' });
    pair.run(0.05);
    expect(pair.received.b.map(([t]) => t)).toEqual(['n']);
    expect(pair.closed.b).toEqual({ reason: 'disconnected by the other side: leaving now', kind: 'closed-by-peer' });
    const after = pair.sent.a.length;
    pair.send('a', 'late', {}, Channel.RELIABLE_ORDERED);
    pair.run(2);
    expect(pair.sent.a).toHaveLength(after);
  });

  it('a reliable message sent in the same tick as disconnect still leaves, before the notice', () => {
    const pair = new NativePair();
    pair.send('a', 'results', { winner: 2 }, Channel.RELIABLE_ORDERED); // queued until the end of the tick
    pair.a.disconnect('game over');
    expect(hasFrame(pair.sent.a[0]!, Frame.MESSAGE, Channel.RELIABLE_ORDERED)).toBe(true);
    expect(pair.sent.a.slice(1).every((d) => hasFrame(d, Frame.DISCONNECT))).toBe(true);
    pair.run(0.05);
    expect(pair.received.b).toEqual([['results', { winner: 2 }, Channel.RELIABLE_ORDERED]]);
    expect(pair.closed.b?.reason).toBe('disconnected by the other side: game over');
  });
});

describe('NativeConnection aggregation', () => {
  it('100 small messages sent in one tick leave in at most 10 datagrams', () => {
    const pair = new NativePair();
    pair.run(0.05); // heartbeats out of the way
    const before = pair.sent.a.length;
    for (let i = 0; i < 100; i++) pair.send('a', 'n', { i }, ALL_CHANNELS[i % 4]!);
    pair.flush();
    const burst = pair.sent.a.slice(before);
    expect(burst.length).toBeGreaterThanOrEqual(1);
    expect(burst.length).toBeLessThanOrEqual(10);
    expect(burst.every((d) => d.byteLength <= Native.DEFAULT_MTU)).toBe(true);
    pair.run(0.05);
    expect(pair.received.b).toHaveLength(100);
  });

  it('reliable messages are packed at the end of the tick and timed from then, when they leave', () => {
    const pair = new NativePair({ latency: 0.01 }, { latency: 0.01 });
    pair.run(0.05);
    const before = pair.sent.a.length;
    for (let i = 0; i < 300; i++) pair.send('a', 'n', { i }, Channel.RELIABLE_ORDERED);
    expect(pair.sent.a.length).toBe(before); // nothing left during the tick…
    expect(pair.a.pendingReliable).toBe(300);
    pair.now += 0.004; // …however long the code that sent took
    pair.flush();
    expect(pair.sent.a.length - before).toBeGreaterThanOrEqual(2); // …all of it at its end
    // Timed from the end of the tick, so an RTT sample is the link's, not the link's plus the sending code's.
    const outbox = (pair.a as unknown as { outbox: NativeOutbox }).outbox;
    expect(outbox.senders[Channel.RELIABLE_ORDERED].oldest()?.firstSent).toBe(pair.now);
    pair.run(1, 0.001, () => pair.a.pendingReliable === 0);
    expect(pair.received.b.map(([, p]) => p.i)).toEqual([...Array(300).keys()]);
  });

  it('acks ride in one datagram per batch, whatever arrived in it', () => {
    const pair = new NativePair({ loss: 1 });
    for (let i = 0; i < 50; i++) pair.send('a', 'n', { i }, Channel.RELIABLE_ORDERED);
    pair.flush();
    for (const d of pair.sent.a) pair.inject('b', d);
    pair.b.flushAcks();
    expect(pair.sent.b).toHaveLength(1);
    expect(framesOf(pair.sent.b[0]!)).toEqual([{ kind: Frame.ACK, channel: 1, next: 50, bitmap: new Uint8Array(0) }]);
  });

  it('an ack owed and a message sent in the same tick share a datagram', () => {
    const pair = new NativePair({ loss: 1 });
    pair.send('a', 'n', {}, Channel.RELIABLE_ORDERED);
    pair.flush();
    pair.inject('b', pair.sent.a[0]!);
    pair.send('b', 'reply', {}, Channel.RELIABLE_UNORDERED);
    pair.flush();
    expect(pair.sent.b).toHaveLength(1);
    expect(framesOf(pair.sent.b[0]!).map((f) => [f.kind, 'channel' in f && f.channel])).toEqual([
      [Frame.MESSAGE, 2],
      [Frame.ACK, 1],
    ]);
  });
});

describe('NativeConnection timing of large bursts', () => {
  it('times a burst from when it left: one longer than the RTO is not retransmitted before an ack could arrive', () => {
    let now = 0;
    const connection = new NativeConnection({
      token: 1n,
      serializer: compactJsonSerializer,
      mtu: 1200,
      clock: () => now,
      transmit: () => {
        now += 0.0001; // each socket send costs about 0.1 ms, as dgram.send does
      },
      onMessage: () => undefined,
      onClosed: () => undefined,
      requestFlush: () => undefined,
      peerRecvWindow: 2 * 1024 * 1024, // the whole burst may leave at once
      keys: TEST_KEYS_A,
    });
    connection.addRttSample(0.001);
    connection.sendBody(compactJsonSerializer.serialize('big', { s: 'x'.repeat(1 << 20) }), Channel.RELIABLE_ORDERED);
    connection.flushAcks(); // the end of the tick, when reliable units are packed and leave
    expect(now).toBeGreaterThan(0.06); // longer than the 50 ms floor of the retransmission timeout
    connection.service(now + 0.001); // the timer phase can run before the socket's acks are read
    expect(connection.counters.retransmits).toBe(0);
    connection.service(now + 1); // with no ack at all, the burst is retransmitted after all
    expect(connection.counters.retransmits).toBeGreaterThan(0);
  });
});

describe('NativeConnection against forged but well-formed datagrams', () => {
  it('a sequenced message absurdly far ahead is dropped, so it cannot freeze the channel', () => {
    const got: number[] = [];
    const receiver = new NativeConnection({
      token: 5n,
      serializer: compactJsonSerializer,
      mtu: 1200,
      clock: () => 0,
      transmit: () => undefined,
      onMessage: (_type, payload) => got.push(payload.i as number),
      onClosed: () => undefined,
      requestFlush: () => undefined,
      keys: TEST_KEYS_B,
    });
    const sealer = testSealer(TEST_KEYS_A.send);
    const sequenced = (seq: number, i: number) =>
      sealDatagram(
        datagram(
          5n,
          encodeMessageFrame(Channel.UNRELIABLE_SEQUENCED, seq, compactJsonSerializer.serialize('m', { i })),
        ),
        sealer,
      );
    receiver.receiveDatagram(sequenced(1, 1));
    receiver.receiveDatagram(sequenced(2 ** 31, 666));
    for (let seq = 2; seq <= 9; seq++) receiver.receiveDatagram(sequenced(seq, seq));
    expect(got).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(receiver.counters.dropped[DropReason.STALE]).toBe(1);
  });

  it('drops a datagram larger than the agreed MTU', () => {
    const receiver = new NativeConnection({
      token: 5n,
      serializer: compactJsonSerializer,
      mtu: 600,
      clock: () => 0,
      transmit: () => undefined,
      onMessage: () => undefined,
      onClosed: () => undefined,
      requestFlush: () => undefined,
      keys: TEST_KEYS_B,
    });
    const big = new Uint8Array(601);
    big[0] = Native.MAGIC;
    receiver.receiveDatagram(big);
    expect(receiver.counters.dropped[DropReason.TOO_LONG]).toBe(1);
  });
});
