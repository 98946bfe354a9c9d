import { describe, expect, it } from 'vitest';
import { LossDetector, Recovery, type SentUnit } from '../../../../main/net/native/recovery/lossDetector';

const unit = (sent: number, attempts = 1, firstSent = sent): SentUnit => ({
  sequence: 0,
  firstSent,
  lastSent: sent,
  attempts,
});

/** A detector that has seen one clean 40 ms round trip (a unit sent at 1.0, acked at 1.04). */
function warmed(): LossDetector {
  const d = new LossDetector();
  expect(d.acknowledged(unit(1), 1.04, 0.04, undefined)).toBe(false);
  return d;
}

describe('LossDetector', () => {
  it('judges only units sent before the newest delivered one, after min(srtt, its RTT) + the reorder window', () => {
    const d = warmed();
    expect(d.minRtt).toBeCloseTo(0.04, 9);
    expect(d.reorderWindow()).toBeCloseTo(0.005, 9); // minRTT / 8
    const delay = d.lossDelay(0.05);
    expect(delay).toBeCloseTo(0.045, 9); // the smaller RTT of the two, plus the window
    expect(d.verdict(unit(1.01), 1.06, delay, false)).toBeUndefined(); // sent after the newest delivered
    expect(d.verdict(unit(0.99), 1.03, delay, false)).toBeCloseTo(1.035, 9); // overtaken: lost at this time
    expect(d.verdict(unit(0.99), 1.036, delay, false)).toBe(true);
    expect(d.verdict(unit(1), 1.05, delay, false)).toBeUndefined(); // same send time…
    expect(d.verdict(unit(1), 1.05, delay, true)).toBe(true); // …unless a later sequence of it was acked
  });

  it('finds a retransmission spurious when its ack comes back faster than any round trip, and learns from it', () => {
    const d = warmed();
    // Sent at 2.0, re-sent at 2.045 by time-based detection, acked at 2.055: 10 ms after the retransmission.
    expect(d.acknowledged(unit(2.045, 2, 2.0), 2.055, 0.04, Recovery.RACK)).toBe(true);
    expect(d.spurious).toBe(1);
    // It came 55 ms after it left, 15 ms beyond the RTT: the window now covers that with a margin.
    expect(d.reorderWindow()).toBeGreaterThan(0.015);
    expect(d.reorderWindow()).toBeLessThanOrEqual(0.04);
    // A spurious ack says nothing of the newest delivered send time (which transmission arrived is unknown).
    expect(d.newestDeliveredSent).toBe(1);
    expect(d.verdict(unit(1.5), 3, 0.05, false)).toBeUndefined();
  });

  it('does not widen the window for a spurious probe or timeout, and judges none before any RTT is known', () => {
    const d = warmed();
    const window = d.reorderWindow();
    expect(d.acknowledged(unit(2.05, 2, 2.0), 2.06, 0.04, Recovery.PROBE)).toBe(true);
    expect(d.acknowledged(unit(3.05, 2, 3.0), 3.06, 0.04, Recovery.TIMEOUT)).toBe(true);
    expect(d.spurious).toBe(2);
    expect(d.reorderWindow()).toBe(window);
    const fresh = new LossDetector();
    expect(fresh.acknowledged(unit(1.0001, 2, 1), 1.0002, undefined, Recovery.RACK)).toBe(false);
    expect(fresh.spurious).toBe(0);
  });

  it('learns nothing from a needless re-send whose ack may answer a copy or an earlier re-send, not the original', () => {
    const d = warmed();
    const window = d.reorderWindow();
    // As traced on the latency bench: sent at 2.0 (lost), re-sent at 2.053 (lost), its redundant copy at 2.061
    // (arrived), re-sent again at 2.102 and acked at 2.1038: the ack answers the copy, 43 ms after it left; the link
    // reordered nothing.
    expect(d.acknowledged(unit(2.102, 3, 2.0), 2.1038, 0.04, Recovery.RACK)).toBe(true);
    expect(d.spurious).toBe(1);
    expect(d.reorderWindow()).toBe(window);
    expect(d.lossDelay(0.04)).toBeCloseTo(0.045, 9); // verdicts still come a round trip + minRTT/8 after a send
    // Sent twice, the ack can only answer the original: that one was late, and the window learns.
    expect(d.acknowledged(unit(3.045, 2, 3.0), 3.055, 0.04, Recovery.RACK)).toBe(true);
    expect(d.reorderWindow()).toBeGreaterThan(0.015);
  });

  it('a retransmission acked a full round trip later is not spurious, and becomes the newest delivered', () => {
    const d = warmed();
    expect(d.acknowledged(unit(2.05, 2, 2.0), 2.09, 0.04, Recovery.RACK)).toBe(false);
    expect(d.verdict(unit(2.04), 2.2, 0.045, false)).toBe(true);
  });

  it('decays a learned window slowly while nothing turns out spurious', () => {
    const d = warmed();
    d.acknowledged(unit(2.045, 2, 2.0), 2.055, 0.04, Recovery.RACK);
    const learned = d.reorderWindow();
    d.decay(2.1, 0.04); // too soon: 8 RTTs must pass
    expect(d.reorderWindow()).toBe(learned);
    d.decay(2.055 + 8 * 0.04, 0.04);
    expect(d.reorderWindow()).toBeCloseTo((learned * 7) / 8, 9);
    for (let t = 3; t < 20; t += 0.4) d.decay(t, 0.04);
    expect(d.reorderWindow()).toBeCloseTo(0.005, 9); // back to minRTT / 8
  });

  it('probes a silent tail sooner than the retransmission timeout (≥ 2·srtt), backing off per probe', () => {
    const d = new LossDetector({ maxAckDelay: 0.01 });
    const first = d.probeTimeout(0.04, 0.001, 0);
    expect(first).toBeCloseTo(0.06, 9); // 1.25 RTT + the ack delay
    expect(first).toBeLessThan(2 * 0.04 + 0.01);
    expect(d.probeTimeout(0.04, 0.03, 0)).toBeCloseTo(0.09, 9); // jittery: capped at 2·srtt + the ack delay
    expect(d.probeTimeout(0.04, 0.001, 2)).toBeCloseTo(4 * first, 9);
  });
});
