import { describe, expect, it } from 'vitest';
import { Channel } from '../../../../shared/net/channel';
import { packHeader, unpackHeader } from '../../../../main/net/v1/header';
import { jsonSerializer } from '../../../../main/net/v1/serialization';
import { Wire } from '../../../../main/net/v1/protocol';
import { PayloadTooLargeError } from '../../../../main/net/errors';
import { SimulatedPair } from '../../../support/simulatedLink';

const isReliable = (d: Uint8Array) => d[0] !== 0;
const typeOf = (d: Uint8Array) => jsonSerializer.deserialize(d.subarray(Wire.HEADER_SIZE)).type;

function datagram(channel: number, sequence: number, ack: number, ackBitfield: number, type: string, payload = {}) {
  const body = jsonSerializer.serialize(type, payload);
  const out = new Uint8Array(Wire.HEADER_SIZE + body.byteLength);
  out.set(packHeader({ channel, token: 42n, sequence, ack, ackBitfield }));
  out.set(body, Wire.HEADER_SIZE);
  return out;
}

describe('Connection reliability over a bad simulated link', () => {
  const bad = { loss: 0.2, duplicate: 0.05, latency: 0.02, jitter: 0.01 };

  it('delivers a 10,000-message RELIABLE_ORDERED burst exactly once, in order, with no disconnect', () => {
    const pair = new SimulatedPair(bad, bad, 7);
    for (let i = 0; i < 10_000; i++) pair.a.send('n', { i }, Channel.RELIABLE_ORDERED);
    pair.run(600, 0.005, () => pair.received.b.length === 10_000 && pair.a.pendingReliable === 0);
    expect(pair.closed).toEqual({ a: undefined, b: undefined });
    expect(pair.received.b.map(([, p]) => p.i)).toEqual([...Array(10_000).keys()]);
    expect(pair.a.pendingReliable).toBe(0);
  });

  it('delivers RELIABLE_UNORDERED exactly once each despite duplication and reordering', () => {
    const pair = new SimulatedPair({ ...bad, duplicate: 0.3 }, bad, 3);
    for (let i = 0; i < 3000; i++) pair.a.send('n', { i }, Channel.RELIABLE_UNORDERED);
    pair.run(300, 0.005, () => pair.received.b.length >= 3000 && pair.a.pendingReliable === 0);
    const got = pair.received.b.map(([, p]) => p.i as number);
    expect(got).toHaveLength(3000);
    expect(new Set(got).size).toBe(3000);
    expect(got).not.toEqual([...got].sort((x, y) => x - y)); // reordering really happened
    expect(pair.closed.a).toBeUndefined();
  });

  it('loses unreliable messages at about the link loss rate and never retransmits them', () => {
    const pair = new SimulatedPair({ loss: 0.2 }, {}, 11);
    for (let i = 0; i < 5000; i++) pair.a.send('u', { i }, Channel.UNRELIABLE);
    pair.run(1);
    const rate = 1 - pair.received.b.length / 5000;
    expect(rate).toBeGreaterThan(0.17);
    expect(rate).toBeLessThan(0.23);
    expect(pair.a.counters.retransmits).toBe(0);
  });

  it('measures RTT from heartbeats', () => {
    const pair = new SimulatedPair({ latency: 0.03 }, { latency: 0.03 });
    pair.run(3);
    expect(pair.a.rtt.smoothed).toBeGreaterThan(0.055);
    expect(pair.a.rtt.smoothed).toBeLessThan(0.075);
    expect(pair.b.rtt.smoothed).toBeGreaterThan(0.055);
  });
});

describe('Connection failure detection', () => {
  it('times out after `timeout` seconds of silence', () => {
    const pair = new SimulatedPair({}, { loss: 1 });
    pair.run(4.9);
    expect(pair.closed.a).toBeUndefined();
    pair.run(0.3);
    expect(pair.closed.a).toMatch(/timed out/);
    expect(pair.a.departure).toBe('timed-out');
  });

  it('drops a peer that answers pings but never acknowledges, with a reason, memory bounded', () => {
    const pair = new SimulatedPair({}, { drop: isReliable });
    for (let i = 0; i < 1000; i++) pair.a.send('n', { i }, Channel.RELIABLE_ORDERED);
    pair.run(30, 0.01, () => pair.closed.a !== undefined);
    expect(pair.closed.a).toMatch(/not acknowledged/);
    expect(pair.a.departure).toBe('unacknowledged');
    expect(pair.now).toBeGreaterThan(5);
    // never more than the ack window on the wire for that channel
    const seqs = new Set(
      pair.sent.a.filter((d) => d[0] === 1 && typeOf(d) !== '__ack__').map((d) => unpackHeader(d)!.sequence),
    );
    expect(Math.max(...seqs)).toBe(32);
  });
});

describe('Connection acknowledgements', () => {
  it('acknowledges a late duplicate far behind the newest again, so the sender does not give up', () => {
    const pair = new SimulatedPair({}, { loss: 1 }); // b's acks are lost for now
    for (let i = 0; i < 40; i++) pair.a.send('n', { i }, Channel.RELIABLE_ORDERED);
    pair.run(0.02);
    // b got 0..32; let the rest through after acks start flowing
    pair.bToA = {};
    pair.run(3, 0.005, () => pair.a.pendingReliable === 0);
    expect(pair.a.pendingReliable).toBe(0);
    expect(pair.received.b).toHaveLength(40);
    expect(pair.closed.a).toBeUndefined();
  });

  it('answers a duplicate of seq 0 after 100 newer ones with a targeted ack naming 0', () => {
    const pair = new SimulatedPair({}, {});
    for (let i = 0; i < 100; i++) pair.inject('b', datagram(1, i, 0xffffffff, 0, 'n', { i }));
    pair.b.flushAcks();
    const before = pair.sent.b.length;
    pair.inject('b', datagram(1, 0, 0xffffffff, 0, 'n', { i: 0 }));
    pair.b.flushAcks();
    const acks = pair.sent.b.slice(before).map((d) => unpackHeader(d)!);
    expect(acks).toEqual([{ channel: 1, token: 42n, sequence: 0, ack: 0, ackBitfield: 0 }]);
    expect(pair.received.b).toHaveLength(100);
  });

  it('sends bare acks only when something new arrived', () => {
    const pair = new SimulatedPair();
    pair.a.send('n', { i: 1 }, Channel.RELIABLE_ORDERED);
    pair.run(0.1);
    const acks = () => pair.sent.b.filter((d) => typeOf(d) === '__ack__').length;
    expect(acks()).toBe(1);
    pair.run(3);
    expect(acks()).toBe(1);
  });

  it('piggybacks acks on reliable data instead of sending bare acks', () => {
    const pair = new SimulatedPair();
    pair.inject('b', datagram(1, 0, 0xffffffff, 0, 'n'));
    pair.b.send('reply', {}, Channel.RELIABLE_ORDERED);
    pair.b.flushAcks();
    const fromB = pair.sent.b.map((d) => [typeOf(d), unpackHeader(d)!.ack]);
    expect(fromB).toEqual([['reply', 0]]);
  });

  it('trusts an ambiguous (0, 0) ack only from a bare ack, not from data', () => {
    const pair = new SimulatedPair({ loss: 1 }, {});
    pair.a.send('n', {}, Channel.RELIABLE_ORDERED);
    pair.inject('a', datagram(1, 0, 0, 0, 'data-from-b'));
    expect(pair.a.pendingReliable).toBe(1);
    pair.inject('a', datagram(1, 0, 0, 0, '__ack__'));
    expect(pair.a.pendingReliable).toBe(0);
  });

  it('sends "nothing received" as ack 2^32-1 so a peer cannot free sequence 0 by mistake', () => {
    const pair = new SimulatedPair();
    pair.a.send('n', {}, Channel.RELIABLE_ORDERED);
    expect(unpackHeader(pair.sent.a.at(-1)!)).toMatchObject({ sequence: 0, ack: 0xffffffff, ackBitfield: 0 });
  });
});

describe('Connection input checks', () => {
  it('refuses bodies over 1200 bytes with a clear error and sends nothing', () => {
    const pair = new SimulatedPair();
    const sent = pair.sent.a.length;
    expect(() => pair.a.send('big', { s: 'x'.repeat(1200) }, Channel.RELIABLE_ORDERED)).toThrow(PayloadTooLargeError);
    expect(() => pair.a.send('big', { s: 'x'.repeat(1200) }, Channel.RELIABLE_ORDERED)).toThrow(/1200 bytes/);
    expect(pair.sent.a.length).toBe(sent);
    expect(pair.a.pendingReliable).toBe(0);
  });

  it('refuses reserved message types from the application', () => {
    const pair = new SimulatedPair();
    expect(() => pair.a.send('__ping__', {}, Channel.UNRELIABLE)).toThrow(/reserved/);
  });

  it('drops reserved types smuggled into a reliable stream and out-of-window sequences, counting them', () => {
    const pair = new SimulatedPair();
    pair.inject('b', datagram(1, 0, 0xffffffff, 0, '__disconnect__'));
    pair.inject('b', datagram(1, 1_000_000, 0xffffffff, 0, 'n'));
    expect(pair.received.b).toEqual([]);
    expect(pair.closed.b).toBeUndefined();
    expect(pair.b.counters.dropped['bad-type']).toBe(1);
    expect(pair.b.counters.dropped['out-of-window']).toBe(1);
  });
});
