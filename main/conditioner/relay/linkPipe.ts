import type { RandomSource } from '../../../shared/random/prng';
import type { Scheduler, TimerHandle } from '../../base/scheduler';
import { DelayQueue } from './delayQueue';
import { LinkModel, type DropReason } from '../linkModel';
import type { LinkProfile } from '../linkProfile';

/** Why a datagram did not get through: the model's reasons, a full queue, or nowhere to send it. */
export type PipeDropReason = DropReason | 'overflow' | 'unroutable';

/** Counters for one direction of the relay. `forwarded` includes duplicates; `queued` is the current backlog. */
export interface DirectionStats {
  received: number;
  receivedBytes: number;
  forwarded: number;
  forwardedBytes: number;
  dropped: number;
  drops: Record<PipeDropReason, number>;
  duplicated: number;
  /** Datagrams delivered after one that arrived later than them. */
  reordered: number;
  queued: number;
}

/** What a LinkPipe needs: its settings, randomness, clock, and where datagrams go (false = could not deliver). */
export interface LinkPipeOptions<T> {
  profile: Readonly<LinkProfile>;
  rng: RandomSource;
  scheduler: Scheduler;
  deliver: (item: T) => boolean;
  /** Most datagrams held at once; beyond it new ones are dropped as 'overflow' (bounds memory). */
  maxQueued: number;
}

interface Queued<T> {
  item: T;
  seq: number;
  size: number;
}

/**
 * One direction of the relay: runs each datagram through the LinkModel and releases it on time. Datagrams due now
 * go straight out; the rest wait in one DelayQueue behind a single armed timer (never one timer per datagram).
 */
export class LinkPipe<T> {
  private readonly model: LinkModel;
  private readonly queue = new DelayQueue<Queued<T>>();
  private readonly scheduler: Scheduler;
  private readonly deliver: (item: T) => boolean;
  private readonly maxQueued: number;
  private timer: TimerHandle | undefined;
  private timerAt = Infinity;
  private nextSeq = 0;
  private highestDelivered = -1;
  private closed = false;
  private readonly counters: Omit<DirectionStats, 'queued' | 'drops'> = {
    received: 0,
    receivedBytes: 0,
    forwarded: 0,
    forwardedBytes: 0,
    dropped: 0,
    duplicated: 0,
    reordered: 0,
  };
  private readonly drops: Record<PipeDropReason, number> = {
    loss: 0,
    burst: 0,
    backlog: 0,
    overflow: 0,
    unroutable: 0,
  };
  private readonly onTimer = (): void => {
    this.timer = undefined;
    this.timerAt = Infinity;
    this.flush();
  };

  constructor(options: LinkPipeOptions<T>) {
    this.model = new LinkModel(options.profile, options.rng);
    this.scheduler = options.scheduler;
    this.deliver = options.deliver;
    this.maxQueued = options.maxQueued;
  }

  /** The current settings (a copy). */
  get profile(): LinkProfile {
    return this.model.profile;
  }

  /** Replaces the settings (already validated); datagrams in flight keep their delivery times. */
  setProfile(profile: Readonly<LinkProfile>): void {
    this.model.setProfile(profile);
  }

  /**
   * True when a datagram may skip the pipe and go out at once: every impairment off and nothing waiting (so it
   * cannot overtake anything). The caller then sends it itself and reports with {@link passed}.
   */
  get passing(): boolean {
    return this.model.transparent && this.queue.size === 0 && !this.closed;
  }

  /** Counts a datagram of `size` bytes the caller sent straight out after {@link passing}; false = it could not. */
  passed(size: number, delivered: boolean): void {
    const c = this.counters;
    c.received++;
    c.receivedBytes += size;
    this.count(this.nextSeq++, size, delivered);
  }

  /** Takes one datagram of `size` bytes into the link. */
  submit(item: T, size: number): void {
    if (this.closed) return;
    const c = this.counters;
    c.received++;
    c.receivedBytes += size;
    const seq = this.nextSeq++;
    if (this.model.transparent && this.queue.size === 0) {
      this.forward(item, seq, size);
      return;
    }
    const now = this.scheduler.now();
    const decision = this.model.decide(size, now);
    if (decision.kind === 'drop') {
      this.drop(decision.reason);
      return;
    }
    this.schedule({ item, seq, size }, decision.at, now);
    if (decision.duplicateAt !== undefined) {
      c.duplicated++;
      this.schedule({ item, seq, size }, decision.duplicateAt, now);
    }
    if (this.queue.size > 0) this.flush();
  }

  /** Counts a datagram that arrived but cannot be routed (e.g. no client mapping available). */
  reject(size: number): void {
    this.counters.received++;
    this.counters.receivedBytes += size;
    this.drop('unroutable');
  }

  /** A snapshot of the counters. */
  stats(): DirectionStats {
    return { ...this.counters, drops: { ...this.drops }, queued: this.queue.size };
  }

  /** Stops the timer and discards anything still in flight; later datagrams are ignored. */
  close(): void {
    this.closed = true;
    this.queue.clear();
    this.disarm();
  }

  private schedule(entry: Queued<T>, at: number, now: number): void {
    if (at <= now && this.queue.size === 0) {
      this.forward(entry.item, entry.seq, entry.size);
    } else if (this.queue.size >= this.maxQueued) {
      this.drop('overflow');
    } else {
      this.queue.push(at, entry);
    }
  }

  private readonly release = (entry: Queued<T>): void => {
    this.forward(entry.item, entry.seq, entry.size);
  };

  /** Delivers everything due, then arms the one timer for the next item, if any. */
  private flush(): void {
    if (this.closed) return;
    this.queue.drainDue(this.scheduler.now(), this.release);
    const next = this.queue.peekTime();
    if (next === undefined) {
      this.disarm();
      return;
    }
    if (next >= this.timerAt) return;
    this.disarm();
    // Whole milliseconds, at least 1: Node timers are ms-granular, and an early wake just re-arms (no spinning).
    const delay = Math.max(1, Math.ceil(next - this.scheduler.now()));
    this.timerAt = next;
    this.timer = this.scheduler.setTimer(this.onTimer, delay);
  }

  private disarm(): void {
    if (this.timer !== undefined) this.scheduler.clearTimer(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  private forward(item: T, seq: number, size: number): void {
    this.count(seq, size, this.deliver(item));
  }

  private count(seq: number, size: number, delivered: boolean): void {
    if (!delivered) {
      this.drop('unroutable');
      return;
    }
    const c = this.counters;
    c.forwarded++;
    c.forwardedBytes += size;
    if (seq < this.highestDelivered) c.reordered++;
    else this.highestDelivered = seq;
  }

  private drop(reason: PipeDropReason): void {
    this.counters.dropped++;
    this.drops[reason]++;
  }
}
