import type { TrafficCounters } from './stats';

/** A connection's health at a glance, for APIs and the lobby's net graph. */
export interface ConnectionStats {
  /** Smoothed round-trip time in seconds (heartbeat EMA, as the reference), or undefined before a sample. */
  rtt: number | undefined;
  /**
   * Least heartbeat round trip over the last 10 s, seconds, or undefined without a sample in that time: the path's
   * own delay, which a stall or a queue only raises (the smoothed figure carries one stalled pong for seconds).
   */
  minRtt?: number;
  /** Mean deviation of round-trip samples, seconds. */
  jitter: number;
  /**
   * Fraction (0–1) of our datagrams the peer did not receive, over the last 5 s: reliable datagrams
   * (native: reliable units, which travel one transmission per datagram) retransmitted before their ack,
   * over all their transmissions, plus heartbeats left unanswered. Outgoing direction. On v1 a retransmission
   * that was not needed (a late ack) counts as a loss; native connections leave out one found spurious, and count
   * a redundant copy's expected loss (see ConnectionHealth.acknowledged).
   */
  loss: number;
  /**
   * Fraction (0–1) of the peer's datagrams that never reached us, over the same 5 s window: native connections
   * number every datagram, so the gaps are the losses (a late one counts once it arrives). Undefined on v1,
   * whose datagrams carry no such number: its receive loss is unknown.
   */
  lossIn?: number;
  packetsSentPerSecond: number;
  packetsReceivedPerSecond: number;
  bytesSentPerSecond: number;
  bytesReceivedPerSecond: number;
  retransmits: number;
  /** Retransmissions whose original turned out to arrive (native; 0 on v1, which cannot tell). */
  spuriousRetransmits: number;
  /** Bytes of redundant copies sent beside retransmissions, so a second loss costs no round trip (native; 0 on v1). */
  redundancyBytes: number;
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

/**
 * A ring of time buckets sliding with the clock: the bucket being filled, and those that fall out of the window as
 * time moves on, which a subclass empties. A clock that goes back, or NaN, moves nothing.
 */
abstract class TimeBuckets {
  /** Number of the bucket being filled: floor(time / bucketLength). */
  private current: number;

  constructor(
    now: number,
    protected readonly buckets: number,
    private readonly bucketLength: number,
  ) {
    this.current = Math.floor(now / bucketLength);
  }

  /** Empties slot `index` (a bucket that fell out of the window). */
  protected abstract clear(index: number): void;

  /** The slot of the bucket being filled at `now`, after emptying those that fell out since the last call. */
  protected slotAt(now: number): number {
    const bucket = Math.floor(now / this.bucketLength);
    if (bucket > this.current) {
      const steps = Math.min(bucket - this.current, this.buckets);
      for (let k = 1; k <= steps; k++) this.clear(this.slot(this.current + k));
      this.current = bucket;
    }
    return this.slot(this.current);
  }

  private slot(bucket: number): number {
    return ((bucket % this.buckets) + this.buckets) % this.buckets;
  }
}

/**
 * Datagrams sent and declared lost over a sliding window of time buckets, so loss reads as a plain
 * fraction of datagrams (an average per acknowledged message is skewed when one datagram carries many).
 * Fixed buffers: recording allocates nothing.
 */
export class LossWindow extends TimeBuckets {
  private readonly sent: Float64Array;
  private readonly lost: Float64Array;

  constructor(now: number, buckets = 10, bucketLength = 0.5) {
    super(now, buckets, bucketLength);
    this.sent = new Float64Array(buckets);
    this.lost = new Float64Array(buckets);
  }

  /** At `now`, `sent` datagrams reached an outcome, `lost` of them never arrived. */
  record(now: number, sent: number, lost: number): void {
    const i = this.slotAt(now);
    this.sent[i]! += sent;
    this.lost[i]! += lost;
  }

  /** Lost over sent in the window ending at `now`, 0–1; 0 when nothing reached an outcome (a late arrival may record −1 lost). */
  fraction(now: number): number {
    this.slotAt(now);
    let sent = 0;
    let lost = 0;
    for (let i = 0; i < this.buckets; i++) {
      sent += this.sent[i]!;
      lost += this.lost[i]!;
    }
    return sent === 0 ? 0 : Math.max(0, Math.min(1, lost / sent));
  }

  protected clear(index: number): void {
    this.sent[index] = 0;
    this.lost[index] = 0;
  }
}

/**
 * The least sample over a sliding window of time buckets (default 10 × 1 s), as a path's propagation delay is read
 * (a windowed minimum follows a path that changed once its old samples age out). Fixed buffers.
 */
export class MinWindow extends TimeBuckets {
  private readonly least: Float64Array;

  constructor(now: number, buckets = 10, bucketLength = 1) {
    super(now, buckets, bucketLength);
    this.least = new Float64Array(buckets).fill(Infinity);
  }

  /** A sample taken at `now`; not finite ones are ignored. */
  add(now: number, sample: number): void {
    if (!Number.isFinite(sample)) return;
    const i = this.slotAt(now);
    if (sample < this.least[i]!) this.least[i] = sample;
  }

  /** The least sample in the window ending at `now`, or undefined when it holds none. */
  at(now: number): number | undefined {
    this.slotAt(now);
    let least = Infinity;
    for (const value of this.least) if (value < least) least = value;
    return least === Infinity ? undefined : least;
  }

  protected clear(index: number): void {
    this.least[index] = Infinity;
  }
}
