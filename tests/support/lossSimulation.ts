import { Channel } from '../../shared/net/channel';
import { percentile } from '../../bench/percentile';
import type { Impairment } from './impairedQueue';
import { NativePair, type Received } from './nativePair';

/** What a {@link simulateDelivery} run measured, in simulated seconds. */
export interface DeliveryReport {
  ordered: { p50: number; p99: number; count: number };
  unordered: { p50: number; p99: number; count: number };
  /** Every latency sample, seconds. */
  samples: { ordered: number[]; unordered: number[] };
  /** Messages sent, both sides and channels. */
  messages: number;
  retransmits: number;
  spurious: number;
  redundancyBytes: number;
  /** Reliable frame bytes first sent, both sides (what the redundancy budget is a fraction of). */
  payloadBytes: number;
  bytesSent: number;
  /** Both sides' stats().loss at the end. */
  loss: [number, number];
}

/**
 * The bench's latency workload (bench/labLatency.ts) on a virtual clock: every 10 ms each side sends two ordered and
 * two unordered reliable messages stamped with the send time, through `link` both ways, serviced every `step` s.
 * Delivery latency is exact simulated time, so the figures do not depend on the machine's load.
 */
export function simulateDelivery(link: Impairment, seed: number, perChannel = 1000, step = 0.001): DeliveryReport {
  const pair = new NativePair(link, link, seed);
  pair.run(1.2, step); // heartbeats: the RTT is known before the measurement, as in the bench
  const samples = { ordered: [] as number[], unordered: [] as number[] };
  const seen = { a: 0, b: 0 };
  const collect = () => {
    for (const side of ['a', 'b'] as const) {
      const got: Received[] = pair.received[side];
      for (; seen[side] < got.length; seen[side]++) {
        const [, payload, channel] = got[seen[side]]!;
        const latency = pair.now - (payload.t as number);
        (channel === Channel.RELIABLE_ORDERED ? samples.ordered : samples.unordered).push(latency);
      }
    }
  };
  const ticks = Math.round(0.01 / step);
  for (let sent = 0; sent < perChannel; sent += 2) {
    for (let k = 0; k < 2; k++) {
      for (const side of ['a', 'b'] as const) {
        pair.send(side, 'ro', { t: pair.now }, Channel.RELIABLE_ORDERED);
        pair.send(side, 'ru', { t: pair.now }, Channel.RELIABLE_UNORDERED);
      }
    }
    for (let i = 0; i < ticks; i++) {
      pair.run(step / 2, step); // half a step: exactly one step, whatever the rounding of the clock
      collect();
    }
  }
  const total = 4 * perChannel;
  for (let i = 0; i < 20_000 && samples.ordered.length + samples.unordered.length < total; i++) {
    pair.run(step / 2, step); // half a step: exactly one step, whatever the rounding of the clock
    collect();
  }
  const sum = (f: (c: NativePair['a']) => number) => f(pair.a) + f(pair.b);
  const summary = (values: number[]) => ({
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    count: values.length,
  });
  return {
    ordered: summary(samples.ordered),
    unordered: summary(samples.unordered),
    samples,
    messages: total,
    retransmits: sum((c) => c.counters.retransmits),
    spurious: sum((c) => c.counters.spuriousRetransmits),
    redundancyBytes: sum((c) => c.counters.redundancyBytes),
    payloadBytes: sum((c) => c.reliableBytesFirstSent),
    bytesSent: sum((c) => c.counters.bytesSent),
    loss: [pair.a.stats().loss, pair.b.stats().loss],
  };
}
