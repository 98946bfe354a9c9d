import { describe, expect, it } from 'vitest';
import { ConnectionHealth } from '../../../../main/net/v1/connectionHealth';
import { TrafficCounters } from '../../../../main/net/v1/stats';

const health = () => new ConnectionHealth({ clock: () => 10 }, new TrafficCounters());
const sent = (attempts: number) => ({ attempts, firstSent: 9.9 });

describe('ConnectionHealth loss accounting', () => {
  it('counts every transmission of an acknowledged unit but the last as lost', () => {
    const h = health();
    for (let i = 0; i < 90; i++) h.acknowledged(sent(1), 10);
    for (let i = 0; i < 10; i++) h.acknowledged(sent(2), 10);
    expect(h.stats(0).loss).toBeCloseTo(10 / 110, 9);
  });

  it('counts a redundant copy beside the last transmission at its expected loss, 2p/(1+p), not as one lost', () => {
    const h = health();
    for (let i = 0; i < 90; i++) h.acknowledged(sent(1), 10);
    for (let i = 0; i < 10; i++) h.acknowledged(sent(2), 10);
    const p = h.stats(0).loss;
    h.acknowledged(sent(2), 10, 1, true); // original lost; re-sent with a copy; one of the two arrived
    expect(h.stats(0).loss).toBeCloseTo((10 + 1 + (2 * p) / (1 + p)) / (110 + 3), 9);
    h.acknowledged(sent(3), 10, 1, false); // the pair was lost too: a third transmission arrived
    expect(h.stats(0).loss).toBeCloseTo((10 + 1 + (2 * p) / (1 + p) + 3) / (110 + 3 + 4), 9);
  });

  it('leaves out a retransmission found spurious: the original arrived, the retransmission has no known fate', () => {
    const h = health();
    for (let i = 0; i < 9; i++) h.acknowledged(sent(1), 10);
    h.acknowledgedEarlier(sent(2), 10);
    expect(h.stats(0).loss).toBe(0);
  });
});
