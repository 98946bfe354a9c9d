import { Defaults } from './protocol';
import { RttEstimator, type RetransmitOptions } from './rttEstimator';
import { LossWindow, MinWindow, RateWindow, type ConnectionStats } from './netStats';
import type { InFlight } from './reliableSender';

/** What health needs of an in-flight message, whatever it carries. */
type Sent = Pick<InFlight<unknown>, 'attempts' | 'firstSent'>;
import type { TrafficCounters } from './stats';

/** Timing options every connection shares, whatever its protocol. */
export interface HealthOptions {
  clock: () => number;
  heartbeatInterval?: number;
  timeout?: number;
  retransmit?: RetransmitOptions;
  /** Attempts before an unacknowledged message, older than `timeout`, ends the connection. */
  maxAttempts?: number;
  /**
   * Ping only beside a pong while the peer's pings keep coming (a native client, see {@link ConnectionHealth.pingHeard}):
   * its heartbeats then cost the server one datagram a second, not two.
   */
  followPeerPings?: boolean;
}

/** A ping still unanswered after this many newer ones counts as lost. */
const MAX_OUTSTANDING_PINGS = 8;
/** A follower pings on its own timer again once the peer's pings are this many intervals late. */
const FOLLOW_SLACK = 1.5;

/**
 * What v1 and native connections measure alike: heartbeats and their RTT (the reference's EMA),
 * the retransmission timeout (also fed by first-time acks, Karn's rule), loss, traffic rates,
 * silence and stuck messages. Protocol-free: the owner sends the pings it is told to.
 */
export class ConnectionHealth {
  /** Round-trip time from heartbeats: the reference's smoothed RTT, reported to the application. */
  readonly rtt: RttEstimator;
  /** Round-trip time from heartbeats and first-time acks: many samples, quick to adapt, drives retransmission. */
  readonly rto: RttEstimator;
  readonly heartbeatInterval: number;
  readonly timeout: number;
  readonly maxAttempts: number;
  private readonly loss: LossWindow;
  /** Least RTT lately, from the same samples as `rtt`: the path's delay, apart from stalls and queues. */
  private readonly rttFloor: MinWindow;
  private readonly clock: () => number;
  private readonly rates: RateWindow;
  private readonly pings = new Map<number, number>();
  private nextPingId = 1;
  private lastPingSent: number;
  private lastSeen: number;
  private readonly follower: boolean;
  /** When the peer's last ping arrived (-Infinity: none yet). */
  private lastPeerPing = -Infinity;
  /** The last check found the peer silent; the next one, after the socket has been read, gives the verdict. */
  private silentAtLastCheck = false;

  constructor(
    options: HealthOptions,
    private readonly counters: TrafficCounters,
  ) {
    this.heartbeatInterval = options.heartbeatInterval ?? Defaults.HEARTBEAT_INTERVAL;
    this.timeout = options.timeout ?? Defaults.TIMEOUT;
    this.maxAttempts = options.maxAttempts ?? 10;
    this.rtt = new RttEstimator(options.retransmit);
    this.rto = new RttEstimator(options.retransmit);
    this.clock = options.clock;
    const now = options.clock();
    this.loss = new LossWindow(now);
    this.rttFloor = new MinWindow(now);
    this.lastSeen = now;
    // Ping early so RTT (and so the retransmission timeout) is known within one round trip.
    this.lastPingSent = now - this.heartbeatInterval;
    this.rates = new RateWindow(now, counters);
    this.follower = options.followPeerPings ?? false;
  }

  /** Something arrived from the other side at `now`. */
  heard(now: number): void {
    this.lastSeen = now;
  }

  /**
   * The reason to end the connection at `now` for silence, if it has been silent too long at this check and the one
   * before. One check is not enough: after our own event loop was blocked (a busy machine, GC, a laptop resuming) the
   * service timer fires in the timers phase before the poll phase reads the datagrams that waited meanwhile, so a
   * peer that kept sending looks silent. The owner's next check comes after that poll phase (a later timer turn, or
   * `update()` after its inbox), when what waited has been heard; a true silence costs one tick more.
   */
  silence(now: number): string | undefined {
    const silent = now - this.lastSeen > this.timeout;
    const confirmed = silent && this.silentAtLastCheck;
    this.silentAtLastCheck = silent;
    return confirmed ? `timed out: nothing heard for ${this.timeout} s` : undefined;
  }

  /** The reason to end the connection because `oldest` was never acknowledged, if it is time. */
  stuck(oldest: Sent | undefined, now: number): string | undefined {
    if (!oldest || oldest.attempts < this.maxAttempts || now - oldest.firstSent <= this.timeout) return undefined;
    return `reliable message not acknowledged after ${oldest.attempts} attempts`;
  }

  /** Rolls the rate window; returns the id of a ping to send now, if one is due. */
  tick(now: number): number | undefined {
    this.rates.roll(now, this.counters);
    if (now - this.lastPingSent < this.heartbeatInterval) return undefined;
    // A follower's pings ride its pongs (pingHeard) while the peer's pings keep coming.
    if (this.follower && now - this.lastPeerPing <= FOLLOW_SLACK * this.heartbeatInterval) return undefined;
    return this.newPing(now);
  }

  /**
   * The peer's ping arrived at `now` (its pong goes out now): returns the id of a ping of ours to send in the same
   * datagram, when half an interval has passed since our last. Heartbeats of both sides then share datagrams
   * instead of each side's ping and pong leaving on their own.
   */
  pingHeard(now: number): number | undefined {
    this.lastPeerPing = now;
    return now - this.lastPingSent < this.heartbeatInterval / 2 ? undefined : this.newPing(now);
  }

  private newPing(now: number): number {
    const id = this.nextPingId++;
    this.pings.set(id, now);
    if (this.pings.delete(id - MAX_OUTSTANDING_PINGS)) this.loss.record(now, 1, 1);
    this.lastPingSent = now;
    return id;
  }

  /** A pong for ping `id` arrived at `now`; unknown ids are ignored. */
  pong(id: unknown, now: number): void {
    const sent = typeof id === 'number' ? this.pings.get(id) : undefined;
    if (sent === undefined) return;
    this.pings.delete(id as number);
    this.loss.record(now, 1, 0);
    this.addRttSample(now - sent);
  }

  /**
   * An in-flight message was acknowledged at `now`: a clean RTO sample if it was sent once (Karn).
   * Each of its transmissions was a datagram; all but the one that arrived count as lost. `copies` redundant
   * copies were sent too; if the last one rode beside the last transmission (`copyInLastRound`), the ack says
   * only that one of those two arrived, so that pair counts its expected loss given that (2p/(1+p), p the
   * loss read so far), not one datagram.
   */
  acknowledged(entry: Sent, now: number, copies = 0, copyInLastRound = false): void {
    if (entry.attempts === 1 && copies === 0) this.rto.addSample(now - entry.firstSent);
    if (copies === 0) return this.loss.record(now, entry.attempts, entry.attempts - 1);
    let lost = entry.attempts - 1 + copies;
    if (copyInLastRound) {
      const p = this.loss.fraction(now);
      lost += (2 * p) / (1 + p) - 1;
    }
    this.loss.record(now, entry.attempts + copies, lost);
  }

  /**
   * An in-flight message was acknowledged at `now`, but sooner after its last transmission than a round trip:
   * an earlier one arrived. That last transmission (and any copy beside it) has no known fate and is left out;
   * of the earlier ones, all but the one that arrived count as lost. No RTO sample (Karn).
   */
  acknowledgedEarlier(entry: Sent, now: number): void {
    this.loss.record(now, entry.attempts - 1, entry.attempts - 2);
  }

  /** Folds in a round-trip sample taken outside the heartbeats (the connect handshake). */
  addRttSample(seconds: number): void {
    this.rtt.addSample(seconds);
    this.rto.addSample(seconds);
    if (seconds >= 0) this.rttFloor.add(this.clock(), seconds);
  }

  /** Timeout before the next retransmission of a message whose timeout expired `timeouts` times. */
  readonly timeoutFor = (timeouts: number): number => this.rto.retransmitTimeout(timeouts);

  /** Pings waiting for their pong. */
  get outstandingPings(): number {
    return this.pings.size;
  }

  /** RTT, jitter, loss, traffic rates and counters, for the application. */
  stats(pendingReliable: number): ConnectionStats {
    const rates = this.rates.perSecond;
    const now = this.clock();
    return {
      rtt: this.rtt.smoothed,
      minRtt: this.rttFloor.at(now),
      jitter: this.rtt.jitter,
      loss: this.loss.fraction(now),
      packetsSentPerSecond: rates.datagramsSent,
      packetsReceivedPerSecond: rates.datagramsReceived,
      bytesSentPerSecond: rates.bytesSent,
      bytesReceivedPerSecond: rates.bytesReceived,
      retransmits: this.counters.retransmits,
      spuriousRetransmits: this.counters.spuriousRetransmits,
      redundancyBytes: this.counters.redundancyBytes,
      dropped: this.counters.droppedTotal,
      pendingReliable,
    };
  }
}
