import { describe, expect, it } from 'vitest';
import { Channel } from '../../../../shared/net/channel';
import { parseNativePacket } from '../../../../main/net/native/nativePacket';
import { Frame } from '../../../../main/net/native/nativeWire';
import { REDUNDANCY_BUDGET } from '../../../../main/net/native/recovery/nativeRecovery';
import { NativePair } from '../../../support/nativePair';
import { simulateDelivery } from '../../../support/lossSimulation';

// Loss recovery of the native protocol on a virtual clock (1 ms steps, 20 ms each way): when a lost unit is
// re-sent, what a reordered one costs, the tail loss probe, redundant copies and their budget.

const STEP = 0.001;
const ONE_WAY = 0.02;
/** A retransmission timeout far beyond anything measured here: whatever recovers a unit, it is not the timeout. */
const SLOW_TIMEOUT = { a: { retransmit: { minRto: 1, maxRto: 2 } }, b: { retransmit: { minRto: 1, maxRto: 2 } } };

/** Sequences of the reliable MESSAGE frames of `channel` (wire id) in a datagram. */
function unitsOf(d: Uint8Array, channel = Channel.RELIABLE_UNORDERED): number[] {
  return parseNativePacket(new Uint8Array(d))
    .frames.filter((f) => f.kind === Frame.MESSAGE && f.channel === channel)
    .map((f) => (f as { seq: number }).seq);
}

/** Runs exactly `seconds` of virtual time in 1 ms steps. */
function runFor(pair: NativePair, seconds: number): void {
  for (let i = Math.round(seconds / STEP); i > 0; i--) pair.run(STEP / 2, STEP);
}

/** Sends `count` unordered units from a, one per 10 ms tick, stamped with their index. */
function stream(pair: NativePair, count: number): void {
  for (let i = 0; i < count; i++) {
    pair.send('a', 'n', { i }, Channel.RELIABLE_UNORDERED);
    runFor(pair, 0.01);
  }
}

describe('time-based loss detection', () => {
  it('re-sends a lost unit about one RTT plus the reorder window after it left, not after the timeout', () => {
    const sent: number[] = []; // times unit 3 left a
    const clock = { now: () => pair.now };
    const log = {
      latency: ONE_WAY,
      drop: (d: Uint8Array) => {
        if (!unitsOf(d).includes(3)) return false;
        sent.push(clock.now());
        return sent.length === 1; // only the first transmission is lost
      },
    };
    const pair: NativePair = new NativePair(log, { latency: ONE_WAY }, 1, SLOW_TIMEOUT);
    runFor(pair, 1.2); // heartbeats: RTT known
    stream(pair, 10);
    runFor(pair, 0.2);
    expect(pair.received.b).toHaveLength(10);
    // Lost, re-sent once the ack of unit 4 (10 ms later) came back and the allowance ran out, then its copy.
    expect(sent).toHaveLength(3);
    const resentAfter = sent[1]! - sent[0]!;
    expect(resentAfter).toBeGreaterThanOrEqual(2 * ONE_WAY + pair.a.reorderWindow);
    expect(resentAfter).toBeLessThanOrEqual(2 * ONE_WAY + 0.01 + 0.006);
    expect(pair.a.counters.retransmits).toBe(1);
    expect(pair.a.counters.spuriousRetransmits).toBe(0);
  });

  it('learns a reorder window: a unit held back (not lost) is re-sent the first time, then no more', () => {
    let datagrams = 0;
    const holdBack = {
      latency: ONE_WAY,
      // Every 7th datagram carrying units arrives 15 ms late: overtaken by the next one, sent 10 ms after it.
      delay: (d: Uint8Array) => (unitsOf(d).length > 0 && ++datagrams % 7 === 0 ? 0.015 : 0),
    };
    const pair = new NativePair(holdBack, { latency: ONE_WAY }, 1, SLOW_TIMEOUT);
    runFor(pair, 1.2);
    const windowBefore = pair.a.reorderWindow;
    stream(pair, 140); // 20 held back
    runFor(pair, 0.2);
    expect(pair.received.b).toHaveLength(140);
    expect(windowBefore).toBeLessThan(0.01);
    // Spurious once (found: its ack came back a few ms after the retransmission), then the window covers it.
    expect(pair.a.counters.spuriousRetransmits).toBe(1);
    expect(pair.a.counters.retransmits).toBe(1);
    expect(pair.a.reorderWindow).toBeGreaterThan(0.015);
    expect(pair.a.reorderWindow).toBeLessThanOrEqual(pair.a.rtt.smoothed! + 0.01);
  });

  it('lets a learned window decay slowly once reordering stops', () => {
    let datagrams = 0;
    const link = {
      latency: ONE_WAY,
      delay: (d: Uint8Array) => (unitsOf(d).length > 0 && ++datagrams % 7 === 0 ? 0.015 : 0),
    };
    const pair = new NativePair(link, { latency: ONE_WAY }, 1, SLOW_TIMEOUT);
    runFor(pair, 1.2);
    stream(pair, 20);
    const learned = pair.a.reorderWindow;
    expect(learned).toBeGreaterThan(0.015);
    pair.aToB = { latency: ONE_WAY };
    runFor(pair, 0.5);
    expect(pair.a.reorderWindow).toBeGreaterThan(learned / 2); // slowly: still most of it after ~12 RTTs
    runFor(pair, 10);
    expect(pair.a.reorderWindow).toBeLessThan(0.01); // back to about minRTT/8
  });

  it('keeps spurious retransmissions under 0.05 per message when jitter reorders without loss', () => {
    const report = simulateDelivery({ latency: ONE_WAY, jitter: 0.01 }, 3);
    expect(report.ordered.count + report.unordered.count).toBe(report.messages);
    expect(report.spurious).toBe(report.retransmits); // nothing was lost: every retransmission was spurious, and found
    expect(report.spurious / report.messages).toBeLessThanOrEqual(0.05);
  });
});

describe('tail loss probe', () => {
  it('re-sends the newest unit when nothing is acknowledged, and so recovers a lost tail well before the timeout', () => {
    let lost = false;
    const link = {
      latency: ONE_WAY,
      // The one datagram carrying units 0–4 is lost, and nothing follows it.
      drop: (d: Uint8Array) => !lost && unitsOf(d).length === 5 && (lost = true),
    };
    const pair = new NativePair(link, { latency: ONE_WAY }, 1, SLOW_TIMEOUT);
    runFor(pair, 1.2);
    for (let i = 0; i < 5; i++) pair.send('a', 'n', { i }, Channel.RELIABLE_UNORDERED);
    const start = pair.now;
    pair.run(0.3, STEP, () => pair.received.b.length === 5);
    expect(lost).toBe(true);
    expect(pair.received.b).toHaveLength(5);
    // Probe after ~1.25 RTT + the ack delay, its ack shows units 0–3 overtaken: one RTT more, far from the 1 s timeout.
    expect(pair.now - start).toBeLessThan(0.16);
    expect(pair.a.counters.retransmits).toBe(5);
  });

  it('counts a probe that was not needed as spurious, without widening the reorder window', () => {
    let late = false;
    const link = {
      latency: ONE_WAY,
      // The tail datagram is 60 ms late: the probe leaves, then the original's ack comes back soon after it.
      delay: (d: Uint8Array) => (!late && unitsOf(d).length > 0 && (late = true) ? 0.06 : 0),
    };
    const pair = new NativePair(link, { latency: ONE_WAY }, 1, SLOW_TIMEOUT);
    runFor(pair, 1.2);
    const window = pair.a.reorderWindow;
    pair.send('a', 'n', { i: 0 }, Channel.RELIABLE_UNORDERED);
    runFor(pair, 0.3);
    expect(pair.received.b).toHaveLength(1);
    expect(pair.a.counters.retransmits).toBe(1);
    expect(pair.a.stats().spuriousRetransmits).toBe(1);
    expect(pair.a.reorderWindow).toBe(window);
  });
});

describe('redundant copies of retransmissions', () => {
  it('carries a retransmission twice, in two datagrams a little apart, so losing it too costs no round trip', () => {
    const sent: number[] = [];
    const clock = { now: () => pair.now };
    const link = {
      latency: ONE_WAY,
      drop: (d: Uint8Array) => {
        if (!unitsOf(d).includes(3)) return false;
        sent.push(clock.now());
        return sent.length <= 2; // the original and the retransmission are lost; the copy is not
      },
    };
    const pair: NativePair = new NativePair(link, { latency: ONE_WAY }, 1, SLOW_TIMEOUT);
    runFor(pair, 1.2);
    let deliveredAt = Infinity;
    const watch = () => {
      if (deliveredAt === Infinity && pair.received.b.some(([, p]) => p.i === 3)) deliveredAt = pair.now;
    };
    for (let i = 0; i < 10; i++) {
      pair.send('a', 'n', { i }, Channel.RELIABLE_UNORDERED);
      for (let k = 0; k < 10; k++) {
        runFor(pair, STEP);
        watch();
      }
    }
    for (let k = 0; k < 200; k++) {
      runFor(pair, STEP);
      watch();
    }
    expect(pair.received.b).toHaveLength(10);
    expect(sent).toHaveLength(3);
    expect(sent[2]! - sent[1]!).toBeGreaterThanOrEqual(0.001); // apart, not back to back
    expect(pair.a.counters.retransmits).toBe(1); // the copy is no retransmission: no second round trip
    expect(deliveredAt - sent[0]!).toBeLessThan(2 * ONE_WAY + 0.01 + ONE_WAY + 0.02);
    expect(pair.a.counters.redundancyBytes).toBeGreaterThan(0);
  });

  it('repeats an ACK that names a gap once, a little later, so losing it does not delay the recovery', () => {
    let dropped = false;
    const link = {
      latency: ONE_WAY,
      drop: (d: Uint8Array) => !dropped && unitsOf(d).includes(3) && (dropped = true),
    };
    const pair = new NativePair(link, { latency: ONE_WAY }, 1, SLOW_TIMEOUT);
    runFor(pair, 1.2);
    const before = pair.sent.b.length;
    stream(pair, 6); // unit 3 lost: b acknowledges 4 and 5 above a gap until the retransmission arrives
    runFor(pair, 0.2);
    const gapAcks = pair.sent.b
      .slice(before)
      .flatMap((d) => parseNativePacket(new Uint8Array(d)).frames)
      .filter((f) => f.kind === Frame.ACK && f.channel === Channel.RELIABLE_UNORDERED && f.bitmap.some((b) => b));
    const bitmaps = gapAcks.map((f) => (f as { next: number; bitmap: Uint8Array }).bitmap.join());
    // Unit 4 arrives above the gap (acked, then repeated), then unit 5 (acked, then repeated).
    expect(bitmaps).toEqual(['1', '1', '3', '3']);
    expect(pair.b.counters.redundancyBytes).toBeGreaterThan(0);
    expect(pair.received.b).toHaveLength(6);
  });

  it('sends exactly no redundancy at 0% loss, and stays within the byte budget at 10%', () => {
    const clean = simulateDelivery({ latency: ONE_WAY }, 5, 400);
    expect(clean.retransmits).toBe(0);
    expect(clean.redundancyBytes).toBe(0);
    const lossy = simulateDelivery({ latency: ONE_WAY, loss: 0.1 }, 5, 400);
    expect(lossy.redundancyBytes).toBeGreaterThan(0);
    expect(lossy.redundancyBytes).toBeLessThanOrEqual(REDUNDANCY_BUDGET * lossy.payloadBytes);
  });
});

describe('delivery latency at 10% loss, 40 ms RTT (the bench workload on a virtual clock)', () => {
  it('recovers a loss in one RTT plus one tick and a second loss in one more: few late, p99 within the second round', () => {
    const clean = simulateDelivery({ latency: ONE_WAY }, 1);
    expect(clean.ordered.p99).toBeLessThanOrEqual(ONE_WAY + 0.002);
    // One recovery found from acks: the next datagram 10 ms later, its ack one RTT after, one way more.
    const firstRound = ONE_WAY + 2 * ONE_WAY + 0.01;
    // Several seeds: 1% of units are lost twice at 10% loss, so the p99 itself sits on the edge between the rounds
    // and moves with the seed; what holds for every seed is how many are late, and that the second round ends it.
    for (const seed of [1, 2, 3]) {
      const lossy = simulateDelivery({ latency: ONE_WAY, loss: 0.1 }, seed);
      expect(lossy.ordered.count + lossy.unordered.count).toBe(lossy.messages);
      const share = (values: number[], after: number) => values.filter((v) => v > after).length / values.length;
      // About the 10% lost needed a recovery (unordered: only those; ordered also waits behind them).
      expect(share(lossy.samples.unordered, ONE_WAY + 0.002)).toBeGreaterThan(0.07);
      expect(share(lossy.samples.unordered, ONE_WAY + 0.002)).toBeLessThan(0.13);
      // Later than one recovery round (5 ms of slack): only what was lost again, ~1% (ordered: and what waits on it).
      expect(share(lossy.samples.unordered, firstRound + 0.005)).toBeLessThanOrEqual(0.02);
      expect(share(lossy.samples.ordered, firstRound + 0.005)).toBeLessThanOrEqual(0.03);
      for (const channel of ['ordered', 'unordered'] as const) {
        expect(lossy[channel].p99).toBeGreaterThanOrEqual(firstRound - 0.001);
        expect(lossy[channel].p99).toBeLessThanOrEqual(ONE_WAY + 2 * (firstRound - ONE_WAY) + 0.005);
      }
      // stats().loss reads the 10% configured per direction, copies and all.
      for (const loss of lossy.loss) expect(Math.abs(loss - 0.1)).toBeLessThanOrEqual(0.03);
    }
  });
});
