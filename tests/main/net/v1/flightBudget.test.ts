import { describe, expect, it } from 'vitest';
import { FlightBudget } from '../../../../main/net/v1/flightBudget';
import { ReliableSender } from '../../../../main/net/v1/reliableSender';

const sized = (n: number) => new Uint8Array(n);

/** Two channels' senders sharing one budget, as a native connection's reliable channels do. */
function pair(limit: number) {
  const budget = new FlightBudget(limit);
  const options = { window: 4096, ackReach: 4096, budget, weigh: (b: Uint8Array) => b.byteLength };
  return { budget, a: new ReliableSender(options), b: new ReliableSender(options) };
}

describe('FlightBudget', () => {
  it('allows bytes up to its limit, and one unit whatever its size when the channel is idle', () => {
    const budget = new FlightBudget(1000);
    expect(budget.allows(1000, false)).toBe(true);
    expect(budget.allows(1001, false)).toBe(false);
    expect(budget.allows(5000, true)).toBe(true);
    budget.inFlight = 900;
    expect(budget.allows(100, false)).toBe(true);
    expect(budget.allows(101, false)).toBe(false);
    budget.release(400);
    expect(budget.inFlight).toBe(500);
    budget.release(10_000); // never below zero, whatever a caller releases
    expect(budget.inFlight).toBe(0);
  });

  it('refuses a limit that is not positive', () => {
    for (const bad of [0, -1, Number.NaN]) expect(() => new FlightBudget(bad)).toThrow(RangeError);
  });
});

describe('ReliableSender with a flight budget', () => {
  it('stops handing out units when the next would exceed the budget, though the window has room', () => {
    const { budget, a } = pair(1000);
    for (let i = 0; i < 10; i++) a.enqueue(sized(300));
    expect(a.takeSendable(0)).toHaveLength(3);
    expect(budget.inFlight).toBe(900);
    expect(a.queuedCount).toBe(7);
    expect(a.takeSendable(0)).toEqual([]);
  });

  it('acknowledgements give the bytes back, and the queue moves on', () => {
    const { budget, a } = pair(1000);
    for (let i = 0; i < 10; i++) a.enqueue(sized(300));
    a.takeSendable(0);
    expect(a.acknowledgeCumulative(2, new Uint8Array(0))).toBe(2);
    expect(budget.inFlight).toBe(300);
    expect(a.takeSendable(0).map((e) => e.sequence)).toEqual([3, 4]);
    expect(budget.inFlight).toBe(900);
    // Everything before next=3 (unit 2) and, selectively, unit 4 (bit 0 names next + 1).
    expect(a.acknowledgeCumulative(3, new Uint8Array([0b1]))).toBe(2);
    expect(budget.inFlight).toBe(300);
  });

  it('is shared: one channel filling it holds the other to the single unit an idle channel may send', () => {
    const { budget, a, b } = pair(1000);
    for (let i = 0; i < 5; i++) a.enqueue(sized(500));
    for (let i = 0; i < 5; i++) b.enqueue(sized(100));
    expect(a.takeSendable(0)).toHaveLength(2);
    expect(b.takeSendable(0)).toHaveLength(1); // idle: may always send one, so it never starves
    expect(b.takeSendable(0)).toEqual([]);
    expect(budget.inFlight).toBe(1100);
    a.acknowledgeCumulative(2, new Uint8Array(0));
    expect(budget.inFlight).toBe(100);
    expect(b.takeSendable(0)).toHaveLength(4);
    expect(budget.inFlight).toBe(500);
  });

  it('a unit larger than the whole budget still goes when its channel is idle, so it never stalls', () => {
    const { budget, a } = pair(1000);
    a.enqueue(sized(5000));
    a.enqueue(sized(10));
    expect(a.takeSendable(0)).toHaveLength(1);
    expect(a.takeSendable(0)).toEqual([]);
    a.acknowledgeCumulative(1, new Uint8Array(0));
    expect(budget.inFlight).toBe(0);
    expect(a.takeSendable(0)).toHaveLength(1);
  });

  it('ignores acknowledgements of units it never sent or already freed: the budget is not given back twice', () => {
    const { budget, a } = pair(1000);
    for (let i = 0; i < 3; i++) a.enqueue(sized(300));
    a.takeSendable(0);
    a.acknowledgeCumulative(1, new Uint8Array(0));
    a.acknowledgeCumulative(1, new Uint8Array(0));
    expect(budget.inFlight).toBe(600);
    a.acknowledgeCumulative(1, new Uint8Array([0b1])); // 2, through the bitmap
    a.acknowledgeCumulative(1, new Uint8Array([0b1])); // and again
    expect(budget.inFlight).toBe(300);
    expect(a.acknowledgeCumulative(50, new Uint8Array(0))).toBe(0); // beyond what was sent: forged
    expect(budget.inFlight).toBe(300);
  });
});
