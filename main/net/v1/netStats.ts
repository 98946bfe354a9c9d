import type { TrafficCounters } from './stats';

/** A connection's health at a glance, for APIs and the lobby's net graph. */
export interface ConnectionStats {
  /** Smoothed round-trip time in seconds (heartbeat EMA, as the reference), or undefined before a sample. */
  rtt: number | undefined;
  /** Mean deviation of round-trip samples, seconds. */
  jitter: number;
  /** Estimated fraction of datagrams lost on the round trip (0–1), from heartbeats and retransmissions. */
  loss: number;
  packetsSentPerSecond: number;
  packetsReceivedPerSecond: number;
  bytesSentPerSecond: number;
  bytesReceivedPerSecond: number;
  retransmits: number;
  /** Datagrams from this peer dropped as malformed or out of window. */
  dropped: number;
  /** Reliable messages waiting for an ack or for room in the window. */
  pendingReliable: number;
}

type Totals = Pick<TrafficCounters, 'datagramsSent' | 'datagramsReceived' | 'bytesSent' | 'bytesReceived'>;

/** Per-second rates of counters over the last complete window (default 1 s). */
export class RateWindow {
  private start: number;
  private startTotals: Totals;
  private rates = { datagramsSent: 0, datagramsReceived: 0, bytesSent: 0, bytesReceived: 0 };

  constructor(
    now: number,
    counters: Totals,
    private readonly length = 1,
  ) {
    this.start = now;
    this.startTotals = snapshot(counters);
  }

  /** Closes the window when it is `length` old, computing its rates. */
  roll(now: number, counters: Totals): void {
    const elapsed = now - this.start;
    if (elapsed < this.length) return;
    const current = snapshot(counters);
    for (const key of Object.keys(this.rates) as Array<keyof Totals>) {
      this.rates[key] = (current[key] - this.startTotals[key]) / elapsed;
    }
    this.start = now;
    this.startTotals = current;
  }

  /** Rates of the last complete window, per second. */
  get perSecond(): Readonly<Totals> {
    return this.rates;
  }
}

function snapshot(c: Totals): Totals {
  return {
    datagramsSent: c.datagramsSent,
    datagramsReceived: c.datagramsReceived,
    bytesSent: c.bytesSent,
    bytesReceived: c.bytesReceived,
  };
}

/** Exponentially weighted loss estimate: each observed delivery outcome moves it by `weight`. */
export class LossEstimator {
  private value = 0;

  constructor(private readonly weight = 0.05) {}

  /** Records one outcome: true when a datagram (or its answer) was lost. */
  observe(lost: boolean): void {
    this.value += this.weight * ((lost ? 1 : 0) - this.value);
  }

  /** Current estimate, 0–1. */
  get estimate(): number {
    return this.value;
  }
}
