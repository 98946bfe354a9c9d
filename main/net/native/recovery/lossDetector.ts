/** What the detector reads of an in-flight unit. */
export interface SentUnit {
  readonly sequence: number;
  firstSent: number;
  lastSent: number;
  attempts: number;
}

/** Why a unit was sent again. */
export const Recovery = {
  /** Time-based loss detection: a unit sent after it was acknowledged, and its reorder allowance ran out. */
  RACK: 'rack',
  /** Tail loss probe: nothing acknowledged for a probe timeout, the newest unit re-sent to draw an ack. */
  PROBE: 'probe',
  /** The retransmission timeout (backstop). */
  TIMEOUT: 'timeout',
} as const;

/** One of the {@link Recovery} causes. */
export type Recovery = (typeof Recovery)[keyof typeof Recovery];

/** Tunables of a {@link LossDetector}, seconds. */
export interface LossDetectorOptions {
  /** Longest the peer may hold an ack back: its flush at the end of a tick (auto mode: the same event-loop turn). */
  maxAckDelay?: number;
  /** Smallest reorder window. */
  minWindow?: number;
}

/** A retransmission whose acknowledgement came back sooner than this fraction of the path's minimum RTT was not needed. */
const SPURIOUS_FRACTION = 0.8;
/** Reorder window before any RTT sample, seconds. */
const INITIAL_WINDOW = 0.002;
/** Without a spurious retransmission for this many smoothed RTTs, the learned window shrinks by DECAY. */
const DECAY_RTTS = 8;
const DECAY = 7 / 8;

/**
 * RACK-style loss detection for one native connection (both reliable channels: units of both ride the
 * same datagrams, so a later unit of either channel acknowledged is evidence for both).
 *
 * A unit is lost when a unit sent after it has been acknowledged and now ≥ its send time + min(srtt, RTT of
 * that newest acknowledged unit) + the reorder window. The window starts at minRTT/8 (at least `minWindow`),
 * grows when a retransmission of a unit sent twice turns out spurious (its ack came back faster than any round trip
 * could: the original arrived after all) to cover the lateness seen, and decays slowly while none is. Pure arithmetic on
 * the times it is given.
 */
export class LossDetector {
  /** Send time of the most recently sent unit known to have arrived (RACK.xmit_ts); −∞ before any. */
  newestDeliveredSent = -Infinity;
  /** That unit's round trip (RACK.rtt). */
  private newestDeliveredRtt = Infinity;
  /** Smallest round trip seen: no acknowledgement can come back sooner after a send. */
  private minRttValue = Infinity;
  /** Reorder window learned from spurious retransmissions (0: none learned). */
  private learned = 0;
  private nextDecay = Infinity;
  private readonly maxAckDelay: number;
  private readonly minWindow: number;
  /** Retransmissions found spurious, all causes. */
  spurious = 0;

  constructor(options: LossDetectorOptions = {}) {
    this.maxAckDelay = options.maxAckDelay ?? 0.01;
    this.minWindow = options.minWindow ?? 0.001;
  }

  /** Smallest round trip seen, seconds (Infinity before any). */
  get minRtt(): number {
    return this.minRttValue;
  }

  /** The current reorder window, seconds. */
  reorderWindow(): number {
    const base = this.minRttValue === Infinity ? INITIAL_WINDOW : Math.max(this.minWindow, this.minRttValue / 8);
    return Math.max(base, this.learned);
  }

  /** How long after its send a unit overtaken by an acknowledged one counts as lost. */
  lossDelay(srtt: number | undefined): number {
    const rtt = Math.min(srtt ?? Infinity, this.newestDeliveredRtt);
    return (rtt === Infinity ? 0.1 : rtt) + this.reorderWindow();
  }

  /**
   * A unit was acknowledged at `now`. Returns whether it had been sent again needlessly (the ack came back
   * sooner after the last transmission than any round trip could, so it acknowledges an earlier one).
   * `cause` is why it was last re-sent, if it was.
   */
  acknowledged(unit: SentUnit, now: number, srtt: number | undefined, cause: Recovery | undefined): boolean {
    const rtt = now - unit.lastSent;
    // Before any unit's own round trip, the heartbeats' smoothed RTT stands in (nothing at all: no verdict).
    const floor = Math.min(this.minRttValue, srtt ?? Infinity);
    if (unit.attempts > 1 && floor !== Infinity && rtt < floor * SPURIOUS_FRACTION) {
      this.spurious += 1;
      // Only time-based detection is tuned by the window (a probe or timeout fired on its own clock), and only when
      // the ack can answer nothing but the first send. Sent three times, a lost original's redundant copy or first
      // re-send may be what arrived: no reordering at all, yet its time since the first send (over a round trip)
      // took the window to its cap (srtt) at once, and every verdict came ~srtt late for seconds (issue 20).
      if (cause === Recovery.RACK && unit.attempts === 2) this.learn(now - unit.firstSent, srtt, now);
      return true;
    }
    // Overtaken yet not lost: reordering the learned window still covers postpones its decay.
    if (this.learned > 0 && unit.lastSent < this.newestDeliveredSent) {
      const late = rtt - Math.min(srtt ?? Infinity, this.newestDeliveredRtt);
      if (late > this.learned * DECAY * DECAY) this.nextDecay = now + DECAY_RTTS * (srtt ?? 0.1);
    }
    if (rtt >= 0 && rtt < this.minRttValue) this.minRttValue = rtt;
    // Ties (units of one datagram) keep the first: same send time, same RTT.
    if (unit.lastSent > this.newestDeliveredSent) {
      this.newestDeliveredSent = unit.lastSent;
      this.newestDeliveredRtt = rtt;
    }
    return false;
  }

  /** Folds in a round trip measured outside acknowledgements (heartbeats, the handshake). */
  addRttSample(rtt: number): void {
    if (rtt >= 0 && rtt < this.minRttValue) this.minRttValue = rtt;
  }

  /**
   * Whether `unit`, sent before the newest delivered one, is lost at `now`; or the time it will be if nothing
   * arrives first (a number > now); or undefined if nothing sent after it has arrived.
   */
  verdict(unit: SentUnit, now: number, delay: number, tie: boolean): true | number | undefined {
    if (!(unit.lastSent < this.newestDeliveredSent || (tie && unit.lastSent === this.newestDeliveredSent)))
      return undefined;
    const at = unit.lastSent + delay;
    return now >= at ? true : at;
  }

  /**
   * Probe timeout: how long after the newest send, with nothing acknowledged, to re-send the newest unit. Shorter
   * than the retransmission timeout (≥ 2·srtt) so a lost tail costs about one RTT, not a timeout.
   */
  probeTimeout(srtt: number | undefined, jitter: number, probes: number): number {
    const rtt = srtt ?? 0.1;
    const base = Math.min(2 * rtt, Math.max(rtt + 4 * jitter, 1.25 * rtt)) + this.maxAckDelay;
    return base * 2 ** Math.min(probes, 6);
  }

  /** Lets the learned window shrink while no retransmission turns out spurious. */
  decay(now: number, srtt: number | undefined): void {
    if (now < this.nextDecay) return;
    this.learned *= DECAY;
    if (this.learned < this.minWindow) {
      this.learned = 0;
      this.nextDecay = Infinity;
      return;
    }
    this.nextDecay = now + DECAY_RTTS * (srtt ?? 0.1);
  }

  /** A RACK retransmission was spurious: the original's ack came `sinceFirst` after it left. */
  private learn(sinceFirst: number, srtt: number | undefined, now: number): void {
    const rtt = Math.min(srtt ?? Infinity, this.newestDeliveredRtt);
    // What the window would have had to be to wait for it, with a quarter more as margin (and at least doubling,
    // so it converges fast).
    const late = sinceFirst - (rtt === Infinity ? 0 : rtt);
    const needed = late + Math.max(this.minWindow, late / 4);
    const cap = srtt ?? 0.1;
    this.learned = Math.min(cap, Math.max(2 * this.reorderWindow(), needed));
    this.nextDecay = now + DECAY_RTTS * (srtt ?? 0.1);
  }
}
