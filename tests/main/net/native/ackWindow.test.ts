import { describe, expect, it } from 'vitest';
import { ReliableReceiver } from '../../../../main/net/v1/reliableReceiver';
import { FAST_RETRANSMIT_GAP, ReliableSender, type InFlight } from '../../../../main/net/v1/reliableSender';
import { sequenceAdd } from '../../../../shared/net/sequenceMath';
import { Native } from '../../../../main/net/native/wire/nativeWire';
import { seededRandom } from '../../../support/seededRandom';

const WINDOW = Native.SEND_WINDOW;
const NEAR_WRAP = 2 ** 32 - 5;

const nativeSender = (startSequence = 0) =>
  new ReliableSender({ window: WINDOW, ackReach: WINDOW, maxQueued: 1 << 20, startSequence });
const body = (i: number) => Uint8Array.of(i & 0xff, (i >> 8) & 0xff);

/** Bits set in a cumulative-ack bitmap, as the sequences they name. */
function named(next: number, bitmap: Uint8Array, length: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < length * 8; k++) if (bitmap[k >> 3]! & (1 << (k & 7))) out.push(sequenceAdd(next, 1 + k));
  return out;
}

describe('ReliableReceiver.cumulativeAck', () => {
  it('names nothing before anything arrived', () => {
    const r = new ReliableReceiver<number>({ ordered: true, window: WINDOW });
    const bitmap = new Uint8Array(Native.MAX_ACK_BITMAP).fill(0xff);
    expect(r.cumulativeAck(bitmap)).toEqual({ next: 0, length: 0 });
    expect(bitmap.every((b) => b === 0)).toBe(true);
  });

  it('advances next over consecutive arrivals and sets bit k for next + 1 + k', () => {
    const r = new ReliableReceiver<number>({ ordered: false, window: WINDOW });
    for (const s of [0, 1, 2, 4, 6, 12, 3 + 1 + 63]) r.receive(s, s, () => undefined);
    const bitmap = new Uint8Array(Native.MAX_ACK_BITMAP);
    const { next, length } = r.cumulativeAck(bitmap);
    expect(next).toBe(3);
    expect(length).toBe(8); // bit 63 is the last of byte 7
    expect([...bitmap.subarray(0, 3)]).toEqual([0b101, 0b1, 0]);
    expect(named(next, bitmap, length)).toEqual([4, 6, 12, 67]);
    r.receive(3, 3, () => undefined);
    r.receive(5, 5, () => undefined);
    // 3–6 now contiguous: next jumps to 7, the remaining bits shift
    const again = r.cumulativeAck(bitmap);
    expect(again.next).toBe(7);
    expect(named(again.next, bitmap, again.length)).toEqual([12, 67]);
  });

  it('zeroes the whole bitmap on every call', () => {
    const r = new ReliableReceiver<number>({ ordered: true, window: WINDOW });
    r.receive(100, 0, () => undefined);
    const bitmap = new Uint8Array(Native.MAX_ACK_BITMAP).fill(0xaa);
    const { length } = r.cumulativeAck(bitmap);
    expect(length).toBe(13); // bit 99 lives in byte 12
    expect(bitmap.reduce((n, b) => n + b, 0)).toBe(1 << (99 & 7));
  });

  it('covers the whole window: all but the first unit fill every byte of the bitmap', () => {
    const r = new ReliableReceiver<number>({ ordered: true, window: WINDOW });
    for (let s = 1; s < WINDOW; s++) expect(r.receive(s, s, () => undefined)).toBe('new');
    expect(r.receive(WINDOW, 0, () => undefined)).toBe('out-of-window');
    const bitmap = new Uint8Array(Native.MAX_ACK_BITMAP);
    const { next, length } = r.cumulativeAck(bitmap);
    expect(next).toBe(0);
    expect(length).toBe(Native.MAX_ACK_BITMAP);
    expect(named(next, bitmap, length)).toEqual(Array.from({ length: WINDOW - 1 }, (_, i) => i + 1));
  });

  it('wraps across 2^32: next and the bits are modulo 2^32', () => {
    const r = new ReliableReceiver<number>({ ordered: true, window: WINDOW, startSequence: NEAR_WRAP });
    const delivered: number[] = [];
    for (let i = 0; i < 4; i++) r.receive(sequenceAdd(NEAR_WRAP, i), i, (m) => delivered.push(m));
    for (const i of [5, 6, 9]) r.receive(sequenceAdd(NEAR_WRAP, i), i, (m) => delivered.push(m));
    const bitmap = new Uint8Array(Native.MAX_ACK_BITMAP);
    const { next, length } = r.cumulativeAck(bitmap);
    expect(next).toBe(2 ** 32 - 1);
    expect(named(next, bitmap, length)).toEqual([0, 1, 4]);
    r.receive(2 ** 32 - 1, 4, (m) => delivered.push(m));
    r.receive(2, 7, (m) => delivered.push(m));
    r.receive(3, 8, (m) => delivered.push(m));
    expect(r.cumulativeAck(bitmap)).toEqual({ next: 5, length: 0 });
    expect(delivered).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('ReliableReceiver.fillAckBitmap', () => {
  it('fills only the bytes it uses, the same bits as cumulativeAck, and touches nothing with nothing above next', () => {
    const r = new ReliableReceiver<number>({ ordered: false, window: WINDOW });
    const bitmap = new Uint8Array(Native.MAX_ACK_BITMAP).fill(0xee);
    for (const s of [0, 1]) r.receive(s, s, () => undefined);
    expect(r.fillAckBitmap(bitmap)).toBe(0);
    expect(r.nextExpected).toBe(2);
    expect(bitmap.every((b) => b === 0xee)).toBe(true);
    for (const s of [3, 13, 20]) r.receive(s, s, () => undefined);
    const length = r.fillAckBitmap(bitmap);
    expect(length).toBe(3); // bit 17 (sequence 20) is in byte 2
    expect(bitmap[3]).toBe(0xee); // past the used bytes: untouched
    const full = new Uint8Array(Native.MAX_ACK_BITMAP);
    expect(r.cumulativeAck(full)).toEqual({ next: 2, length });
    expect([...bitmap.subarray(0, length)]).toEqual([...full.subarray(0, length)]);
    expect(named(2, bitmap, length)).toEqual([3, 13, 20]);
  });
});

describe('ReliableSender.acknowledgeCumulative', () => {
  function inFlight(count: number, start = 0, now = 0) {
    const s = nativeSender(start);
    for (let i = 0; i < count; i++) s.enqueue(body(i));
    const sent = s.takeSendable(now);
    expect(sent).toHaveLength(Math.min(count, WINDOW));
    return s;
  }

  it('frees everything before next and each unit a set bit names, reporting each once', () => {
    const s = inFlight(20);
    const freed: number[] = [];
    // next 5; bits 0, 2, 9 → 6, 8, 15
    expect(s.acknowledgeCumulative(5, Uint8Array.of(0b101, 0b10), (e) => freed.push(e.sequence))).toBe(8);
    expect(freed).toEqual([0, 1, 2, 3, 4, 6, 8, 15]);
    expect(s.inFlightCount).toBe(12);
    // the same ack again frees nothing more
    expect(s.acknowledgeCumulative(5, Uint8Array.of(0b101, 0b10), (e) => freed.push(e.sequence))).toBe(0);
    expect(s.acknowledgeCumulative(20, new Uint8Array(0))).toBe(12);
    expect(s.inFlightCount).toBe(0);
  });

  it('ignores an ack older than what it already freed, and bits beyond what is in flight', () => {
    const s = inFlight(10);
    expect(s.acknowledgeCumulative(6, new Uint8Array(0))).toBe(6);
    expect(s.acknowledgeCumulative(2, Uint8Array.of(0b1))).toBe(0); // names 3: already freed
    expect(s.acknowledgeCumulative(6, new Uint8Array(128).fill(0xff))).toBe(3); // 7, 8, 9; nothing beyond
    expect(s.oldest()?.sequence).toBe(6);
  });

  it('one ack frees a whole window of 1023 units behind one lost unit', () => {
    const s = inFlight(WINDOW + 10);
    expect(s.inFlightCount).toBe(WINDOW);
    expect(s.queuedCount).toBe(10);
    const bitmap = new Uint8Array(Native.MAX_ACK_BITMAP).fill(0xff);
    expect(s.acknowledgeCumulative(0, bitmap)).toBe(WINDOW - 1);
    expect(s.oldest()?.sequence).toBe(0);
    // the window is anchored on the oldest unacknowledged unit, so nothing new may leave yet
    expect(s.takeSendable(1)).toHaveLength(0);
    expect(s.acknowledgeCumulative(1, new Uint8Array(0))).toBe(1);
    expect(s.takeSendable(1).map((e) => e.sequence)).toEqual(Array.from({ length: 10 }, (_, i) => WINDOW + i));
  });

  it('wraps across 2^32', () => {
    const s = inFlight(12, NEAR_WRAP);
    const freed: number[] = [];
    // next = 1 (past the wrap), bit 1 → 3
    expect(s.acknowledgeCumulative(1, Uint8Array.of(0b10), (e) => freed.push(e.sequence))).toBe(7);
    expect(freed).toEqual([2 ** 32 - 5, 2 ** 32 - 4, 2 ** 32 - 3, 2 ** 32 - 2, 2 ** 32 - 1, 0, 3]);
    expect(s.oldest()?.sequence).toBe(1);
    expect(s.acknowledgeCumulative(sequenceAdd(NEAR_WRAP, 12), new Uint8Array(0))).toBe(5);
  });
});

describe('ReliableSender.dueFast', () => {
  it('returns nothing before any acknowledgement', () => {
    const s = nativeSender();
    for (let i = 0; i < 10; i++) s.enqueue(body(i));
    s.takeSendable(0);
    expect(s.dueFast(100, 0.01)).toEqual([]);
  });

  it(`re-sends a unit overtaken by ${FAST_RETRANSMIT_GAP} acknowledged ones, at most once per interval`, () => {
    const s = nativeSender();
    for (let i = 0; i < 10; i++) s.enqueue(body(i));
    s.takeSendable(0);
    s.acknowledgeCumulative(0, Uint8Array.of(0b11)); // 1, 2 acknowledged: only 2 ahead of 0
    expect(s.dueFast(1, 0.1)).toEqual([]);
    s.acknowledgeCumulative(0, Uint8Array.of(0b111)); // 3 acknowledged: 0 is overtaken by 3
    expect(s.dueFast(0.05, 0.1)).toEqual([]); // sent too recently
    const due = s.dueFast(1, 0.1);
    expect(due.map((e: InFlight) => [e.sequence, e.attempts, e.lastSent])).toEqual([[0, 2, 1]]);
    expect(due[0]!.timeouts).toBe(0); // a fast retransmit does not back the timeout off
    expect(s.dueFast(1.05, 0.1)).toEqual([]);
    expect(s.dueFast(1.1, 0.1).map((e) => e.sequence)).toEqual([0]);
  });

  it('stops at the first unit not overtaken, listing every older gap', () => {
    const s = nativeSender(NEAR_WRAP);
    for (let i = 0; i < 20; i++) s.enqueue(body(i));
    s.takeSendable(0);
    // received: NEAR_WRAP+1, +3, +9 → holes at +0, +2, +4..+8
    const bitmap = new Uint8Array(2);
    for (const k of [0, 2, 8]) bitmap[k >> 3] = bitmap[k >> 3]! | (1 << (k & 7));
    expect(s.acknowledgeCumulative(NEAR_WRAP, bitmap)).toBe(3);
    const due = s.dueFast(1, 0.01).map((e) => e.sequence);
    // highest acknowledged is +9: holes at least 3 behind it are +0, +2, +4, +5, +6; +7 and +8 are not
    expect(due).toEqual([0, 2, 4, 5, 6].map((i) => sequenceAdd(NEAR_WRAP, i)));
  });
});

describe('the whole-window ack under loss', () => {
  it('with 20% loss both ways never stalls: every unit is acknowledged and delivered in order', () => {
    const random = seededRandom(2024);
    const total = 6000;
    const start = 2 ** 32 - 2500; // crosses the wrap mid-run
    const sender = nativeSender(start);
    const receiver = new ReliableReceiver<number>({ ordered: true, window: WINDOW, startSequence: start });
    const delivered: number[] = [];
    const sequences = new Map<number, number>();
    for (let i = 0; i < total; i++) {
      sequences.set(sequenceAdd(start, i), i);
      sender.enqueue(body(i));
    }
    const bitmap = new Uint8Array(Native.MAX_ACK_BITMAP);
    let now = 0;
    let maxInFlight = 0;
    let outOfWindow = 0;
    let rounds = 0;
    const rto = () => 0.2;
    let fast: readonly InFlight[] = [];
    while (sender.inFlightCount + sender.queuedCount > 0 && rounds < 5000) {
      rounds += 1;
      now += 0.01;
      const outgoing = [...fast, ...sender.takeSendable(now), ...sender.dueForRetransmit(now, rto, 0.05)];
      fast = [];
      maxInFlight = Math.max(maxInFlight, sender.inFlightCount);
      for (const unit of outgoing) {
        if (random() < 0.2) continue;
        const status = receiver.receive(unit.sequence, sequences.get(unit.sequence)!, (m) => delivered.push(m));
        if (status === 'out-of-window') outOfWindow += 1;
      }
      if (random() < 0.2) continue; // the round's ack is lost
      const { next, length } = receiver.cumulativeAck(bitmap);
      sender.acknowledgeCumulative(next, bitmap.subarray(0, length));
      fast = sender.dueFast(now, 0.05); // sent with the next round's datagrams
    }
    expect(sender.inFlightCount + sender.queuedCount).toBe(0);
    expect(delivered).toEqual([...Array(total).keys()]);
    expect(maxInFlight).toBe(WINDOW); // the window really filled
    expect(outOfWindow).toBe(0); // the receiver's window matches the sender's
    expect(rounds).toBeLessThan(5000);
  });
});
