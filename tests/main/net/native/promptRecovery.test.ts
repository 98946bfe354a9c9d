import { describe, expect, it } from 'vitest';
import { Channel } from '../../../../shared/net/channel';
import { parseNativePacket } from '../../../../main/net/native/wire/nativePacket';
import { Frame } from '../../../../main/net/native/wire/nativeWire';
import { NativePair } from '../../../support/nativePair';
import type { Impairment } from '../../../support/impairedQueue';

// Loss recovery between ticks, on a virtual clock played as auto mode: 1 ms steps, datagrams handled as they
// arrive (a flush at the end of each one's turn), wake-ups when asked (requestWake), and `service` at most once a
// second once the RTT is known, so whatever happens within the scenario happens on events, not on the tick.

const STEP = 0.001;
const ONE_WAY = 0.02;
const SLOW_TIMEOUT = { a: { retransmit: { minRto: 1, maxRto: 2 } }, b: { retransmit: { minRto: 1, maxRto: 2 } } };

type Frames = ReturnType<typeof parseNativePacket>['frames'];
const framesOf = (d: Uint8Array): Frames => parseNativePacket(new Uint8Array(d)).frames;
const unitsOf = (d: Uint8Array) =>
  framesOf(d)
    .filter((f) => f.kind === Frame.MESSAGE && f.channel === Channel.RELIABLE_UNORDERED)
    .map((f) => (f as { seq: number }).seq);
/** Whether `d` carries an ACK of the unordered channel naming a gap (units received above a missing one). */
const namesGap = (d: Uint8Array) =>
  framesOf(d).some(
    (f) => f.kind === Frame.ACK && f.channel === Channel.RELIABLE_UNORDERED && f.bitmap.some((b) => b !== 0),
  );

/** A pair whose datagrams are logged with their send time; `drop`/`delay` shape a→b. */
function tracedPair(aToB: Pick<Impairment, 'drop' | 'delay'>) {
  const log: { from: 'a' | 'b'; at: number; d: Uint8Array }[] = [];
  const trace =
    (from: 'a' | 'b', drop?: (d: Uint8Array) => boolean) =>
    (d: Uint8Array): boolean => {
      log.push({ from, at: pair.now, d });
      return drop?.(d) ?? false;
    };
  const pair: NativePair = new NativePair(
    { latency: ONE_WAY, drop: trace('a', aToB.drop), delay: aToB.delay },
    { latency: ONE_WAY, drop: trace('b') },
    1,
    SLOW_TIMEOUT,
  );
  pair.run(1.2, STEP); // heartbeats: the RTT is known
  pair.serviceInterval = 1;
  pair.run(STEP, STEP); // the last tick for a second
  return { pair, log };
}

/** Sends unordered units `from`..`to` from a, one every `gap` seconds. */
function stream(pair: NativePair, from: number, to: number, gap: number): void {
  for (let i = from; i <= to; i++) {
    pair.send('a', 'n', { i }, Channel.RELIABLE_UNORDERED);
    pair.run(gap / 2, STEP); // the send leaves at the end of this turn, then the clock moves on
    if (gap > STEP) pair.run(gap - STEP, STEP);
  }
}

/** Every time a sent a datagram carrying unit `seq`. */
const sendsOf = (log: ReturnType<typeof tracedPair>['log'], seq: number) =>
  log.filter((e) => e.from === 'a' && unitsOf(e.d).includes(seq)).map((e) => e.at);

describe('loss recovery on events, not on the tick', () => {
  it('acknowledges at once when a unit arrives above a gap, and re-sends in the turn that ack arrives', () => {
    let dropped = false;
    const { pair, log } = tracedPair({ drop: (d) => !dropped && unitsOf(d).includes(3) && (dropped = true) });
    stream(pair, 0, 5, 0.01);
    pair.run(0.1, STEP);
    const unit4 = log.find((e) => e.from === 'a' && unitsOf(e.d).includes(4))!;
    const gapAck = log.find((e) => e.from === 'b' && namesGap(e.d))!;
    // b's ACK of unit 4 names the gap in the turn unit 4 arrived, not at a tick.
    expect(gapAck.at).toBeCloseTo(unit4.at + ONE_WAY, 6);
    // a re-sends unit 3 in the turn that ACK arrives (its send was 10 ms + one RTT ago: past the allowance).
    const sends = sendsOf(log, 3);
    expect(sends[1]).toBeCloseTo(gapAck.at + ONE_WAY, 6);
    expect(pair.received.b).toHaveLength(6);
  });

  it('judges a unit overtaken but not yet due at its due time, between ticks', () => {
    let dropped = false;
    const { pair, log } = tracedPair({ drop: (d) => !dropped && unitsOf(d).includes(3) && (dropped = true) });
    // Unit 4 leaves 1 ms after unit 3: its ack comes back before unit 3 has run out of reorder allowance.
    stream(pair, 0, 2, 0.01);
    stream(pair, 3, 4, STEP);
    pair.run(0.1, STEP);
    const [sent, resent] = sendsOf(log, 3);
    const allowance = pair.a.rtt.smoothed! + pair.a.reorderWindow;
    expect(resent! - sent!).toBeGreaterThanOrEqual(2 * ONE_WAY + 0.001 + STEP); // not when unit 4's ack came
    expect(resent! - sent!).toBeLessThanOrEqual(Math.max(2 * ONE_WAY, allowance) + 2 * STEP); // nor at a tick
    expect(pair.received.b).toHaveLength(5);
  });

  it('learns no reorder window from a re-send made needless by a redundant copy (issue 20)', () => {
    // Unit 3's first send and its re-send are lost; the re-send's redundant copy arrives. A unit that left between
    // the re-send and the copy is acked first, so unit 3 goes a third time just before the copy's ack comes back:
    // needless, but the link reordered nothing.
    let seen = 0;
    let later = false; // unit 14, sent afterwards: lost once
    const { pair, log } = tracedPair({
      drop: (d) => (unitsOf(d).includes(3) && ++seen <= 2) || (!later && unitsOf(d).includes(14) && (later = true)),
    });
    stream(pair, 0, 2, 0.01);
    const first = pair.now;
    // Unit 4 overtakes unit 3 at once; unit 8 leaves 1 ms after unit 3's re-send (46 ms on), before the copy.
    [0, 0.002, 0.012, 0.022, 0.032, 0.047, 0.057, 0.067, 0.077, 0.087, 0.097].forEach((at, k) => {
      pair.run(Math.max(0, first + at - pair.now), STEP);
      pair.send('a', 'n', { i: 3 + k }, Channel.RELIABLE_UNORDERED);
    });
    pair.run(0.2, STEP);
    const sends = sendsOf(log, 3).map((t) => t - first);
    expect(sends).toHaveLength(4); // sent, re-sent at 46 ms, the copy, re-sent again
    expect(sendsOf(log, 8)[0]! - first).toBeLessThan(sends[2]!);
    expect(pair.a.counters.spuriousRetransmits).toBe(1);
    expect(pair.received.b).toHaveLength(14);
    // The window stays minRTT/8 (it went to srtt, 40 ms)…
    expect(pair.a.reorderWindow).toBeCloseTo((2 * ONE_WAY) / 8, 3);
    // …so the next loss is still re-sent a round trip + 5 ms after its send, not ~35 ms later.
    stream(pair, 14, 15, 0.002);
    pair.run(0.2, STEP);
    const [sent, resent] = sendsOf(log, 14);
    expect(resent! - sent!).toBeLessThanOrEqual(2 * ONE_WAY + (2 * ONE_WAY) / 8 + 2 * STEP);
    expect(pair.received.b).toHaveLength(16);
  });

  it('does not re-send a unit that arrives late but within the reorder window', () => {
    let held = false;
    const { pair } = tracedPair({ delay: (d) => (!held && unitsOf(d).includes(3) && (held = true) ? 0.003 : 0) });
    stream(pair, 0, 2, 0.01);
    stream(pair, 3, 4, STEP); // unit 4 overtakes unit 3 by 2 ms: the window (≥ minRTT/8 = 5 ms) covers it
    pair.run(0.1, STEP);
    expect(held).toBe(true);
    expect(pair.a.reorderWindow).toBeGreaterThan(0.002);
    expect(pair.received.b).toHaveLength(5);
    expect(pair.a.counters.retransmits).toBe(0);
    expect(pair.a.counters.spuriousRetransmits).toBe(0);
  });
});
