import { Defaults } from './protocol';

/** Retransmission timing limits, in seconds. */
export interface RetransmitOptions {
  /** Floor of the retransmission timeout, so a sub-millisecond loopback RTT cannot cause a storm. */
  minRto?: number;
  /** Ceiling of one retransmission timeout after backoff. */
  maxRto?: number;
}

/**
 * Round-trip time of one connection. `smoothed` is the reference's figure (EMA of ping samples,
 * first sample as is, then 7/8 old + 1/8 new); `jitter` is the mean deviation, used with it
 * for the retransmission timeout, which backs off exponentially per attempt.
 */
export class RttEstimator {
  private srtt: number | undefined;
  private deviation = 0;
  readonly minRto: number;
  readonly maxRto: number;

  constructor(options: RetransmitOptions = {}) {
    this.minRto = options.minRto ?? 0.05;
    this.maxRto = options.maxRto ?? 1.0;
  }

  /** Smoothed RTT in seconds, or undefined before the first sample. */
  get smoothed(): number | undefined {
    return this.srtt;
  }

  /** Mean deviation of RTT samples in seconds (0 before the second sample). */
  get jitter(): number {
    return this.deviation;
  }

  /** Folds in one round-trip sample, in seconds. Negative or non-finite samples are ignored. */
  addSample(sample: number): void {
    if (!Number.isFinite(sample) || sample < 0) return;
    if (this.srtt === undefined) {
      this.srtt = sample;
      this.deviation = sample / 2;
      return;
    }
    this.deviation = 0.75 * this.deviation + 0.25 * Math.abs(sample - this.srtt);
    this.srtt = 0.875 * this.srtt + 0.125 * sample;
  }

  /** Least time between two evidence-driven (fast) retransmissions of one message: about one RTT. */
  fastRetransmitInterval(): number {
    return Math.max(0.005, (this.srtt ?? Defaults.INITIAL_RTT) + this.deviation);
  }

  /** Timeout before the next retransmission of a message whose timeout already expired `timeouts` times. */
  retransmitTimeout(timeouts: number): number {
    const rtt = this.srtt ?? Defaults.INITIAL_RTT;
    const base = Math.max(this.minRto, 2 * rtt, rtt + 4 * this.deviation);
    const backoff = 2 ** Math.min(Math.max(timeouts, 0), 8);
    return Math.min(this.maxRto, base * backoff);
  }
}
