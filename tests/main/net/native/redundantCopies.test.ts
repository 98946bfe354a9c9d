import { describe, expect, it } from 'vitest';
import { Channel } from '../../../../shared/net/channel';
import { RedundantCopies } from '../../../../main/net/native/recovery/redundantCopies';
import type { InFlight } from '../../../../main/net/v1/reliableSender';

const entry = (sequence: number): InFlight<string> => ({
  sequence,
  body: `unit ${sequence}`,
  firstSent: 0,
  lastSent: 0.05,
  attempts: 2,
  timeouts: 0,
});

describe('RedundantCopies', () => {
  it('sends a planned copy once it is due, and only while its unit is in flight and not re-sent since', () => {
    const copies = new RedundantCopies<string>({ budget: 0.15 });
    const [a, b, c] = [entry(1), entry(2), entry(3)];
    for (const e of [a, b, c]) copies.plan(Channel.RELIABLE_ORDERED, e, 0.052);
    const emitted: number[] = [];
    const emit = (_: unknown, e: InFlight<string>) => (emitted.push(e.sequence), 10);
    copies.release(0.051, () => true, emit);
    expect(emitted).toEqual([]); // not due yet
    b.attempts += 1; // re-sent again: this copy is moot
    copies.release(0.052, (_, e) => e !== c, emit); // c was acknowledged meanwhile
    expect(emitted).toEqual([1]);
    expect(copies.pending).toBe(0);
    expect([copies.count, copies.bytes]).toEqual([1, 10]);
  });

  it('keeps copy bytes within the budget fraction of the reliable bytes first sent', () => {
    const copies = new RedundantCopies<string>({ budget: 0.15 });
    expect(copies.affords(150, 1000)).toBe(true);
    expect(copies.affords(151, 1000)).toBe(false);
    expect(copies.affords(1, 0)).toBe(false); // nothing sent yet: nothing to spend
    copies.plan(Channel.RELIABLE_ORDERED, entry(1), 0);
    copies.release(
      1,
      () => true,
      () => 0,
    ); // the emitter refused (over budget): kept for later
    expect(copies.pending).toBe(1);
    copies.expire(1.2, 0.1, () => true); // too old to help
    expect(copies.pending).toBe(0);
  });
});
