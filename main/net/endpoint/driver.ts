import type { DatagramSource } from './datagramSocket';
import { DropReason, type TrafficCounters } from '../v1/stats';
import type { Scheduler, TimerHandle } from '../../base/scheduler';

const settled = Promise.resolve();

/** Fine ticks in a row with nothing urgent before the idle period: bursty reliable traffic stays on the fine tick. */
const QUIET_TICKS = 10;

/** How an endpoint is driven: by its own timers, or by `update(dt)` from a game loop. */
export type DriveMode = 'auto' | 'manual';

/** What the driver calls on its owner. */
export interface DriverHooks {
  handleDatagram(data: Uint8Array, from: DatagramSource): void;
  service(now: number): void;
  /** Called after a batch of datagrams in auto mode, to send acks promptly. */
  afterBatch(): void;
  /** Auto mode: the time asked for with {@link EndpointDriver.wakeAt} has come (flush whoever asked). */
  wake?(): void;
  /**
   * Whether something waits on the fine tick: reliable data unacknowledged (retransmissions, stuck checks) or a
   * connect attempt. When false, auto mode services at `idleTickInterval` instead (heartbeats and timeouts only).
   * Absent: always the fine tick.
   */
  urgent?(): boolean;
}

/** Options of {@link EndpointDriver}. */
export interface DriverOptions {
  mode: DriveMode;
  /** Arms the auto mode's timers. */
  scheduler: Scheduler;
  /** The scheduler's clock in seconds, the time `service` is given. */
  clock: () => number;
  /** Service period in auto mode, seconds. */
  tickInterval?: number;
  /** Service period in auto mode while nothing is urgent, seconds; at least `tickInterval`. Default 0.1. */
  idleTickInterval?: number;
  /** Datagrams held for the next `update` in manual mode. */
  inboxLimit?: number;
  counters: TrafficCounters;
}

/**
 * Gives Server and Client the same semantics in both drive modes. Auto: datagrams are handled
 * as they arrive and `service` runs on a timer. Manual: datagrams wait in a bounded inbox and
 * both happen inside `update`, as in the reference.
 */
export class EndpointDriver {
  private readonly inbox: Array<[Uint8Array, DatagramSource]> = [];
  private timer: TimerHandle | undefined;
  /** The period the timer runs at now, ms. */
  private period = 0;
  /** Fine ticks in a row that found nothing urgent. */
  private quietTicks = 0;
  private readonly fastPeriod: number;
  private readonly idlePeriod: number;
  private batchScheduled = false;
  private wakeTimer: TimerHandle | undefined;
  /** When the wake timer is due, clock seconds (Infinity: none armed). */
  private wakeTime = Infinity;
  private promptScheduled = false;
  private stopped = false;

  constructor(
    private readonly hooks: DriverHooks,
    private readonly options: DriverOptions,
  ) {
    this.fastPeriod = (options.tickInterval ?? 0.01) * 1000;
    this.idlePeriod = Math.max(this.fastPeriod, (options.idleTickInterval ?? 0.1) * 1000);
    if (options.mode === 'auto') this.arm(this.fastPeriod);
  }

  /** Auto mode's current service period in seconds: `tickInterval`, or `idleTickInterval` while nothing is urgent. */
  get servicePeriod(): number {
    return this.period / 1000;
  }

  /**
   * Back to the fine tick at once if idle: call when something urgent starts (a reliable send, a connect). Waking
   * every 10 ms for nothing cost an idle server with 64 peers ~5% of a core here, more than the datagrams it sent.
   */
  hurry(): void {
    if (this.period !== this.fastPeriod && !this.stopped && this.options.mode === 'auto') this.arm(this.fastPeriod);
  }

  private arm(period: number): void {
    if (this.timer !== undefined) this.options.scheduler.clearTimer(this.timer);
    this.quietTicks = 0;
    this.period = period;
    this.timer = this.options.scheduler.setRepeating(this.onTimer, period);
  }

  private readonly onTimer = (): void => {
    this.hooks.service(this.options.clock());
    if (this.stopped) return;
    if (this.hooks.urgent?.() ?? true) {
      this.quietTicks = 0;
      if (this.period !== this.fastPeriod) this.arm(this.fastPeriod);
    } else if (this.period === this.fastPeriod && ++this.quietTicks >= QUIET_TICKS) {
      this.arm(this.idlePeriod);
    }
  };

  /** Feed from the socket's 'message' event. */
  onDatagram(data: Uint8Array, from: DatagramSource): void {
    if (this.stopped) return;
    if (this.options.mode === 'auto') {
      this.hooks.handleDatagram(data, from);
      // A prompt flush already queued runs right after this datagram and sends what it owes.
      if (!this.promptScheduled) this.requestFlush();
      return;
    }
    if (this.inbox.length >= (this.options.inboxLimit ?? 65_536)) {
      this.options.counters.drop(DropReason.INBOX_FULL);
      return;
    }
    this.inbox.push([data, from]);
  }

  /**
   * Asks for `afterBatch` as soon as the code running now is done (a microtask): what it sent
   * shares datagrams, and an answer sent from a message callback leaves without waiting for the
   * event loop. In manual mode `update` ends with it anyway.
   */
  requestPromptFlush(): void {
    if (this.options.mode !== 'auto' || this.promptScheduled || this.stopped) return;
    this.promptScheduled = true;
    // A reaction on a settled promise, not queueMicrotask, which makes an AsyncResource and a bound function each call.
    // `settled` never rejects; a throw in afterBatch is a bug and ends up where a timer callback's throw would.
    void settled.then(this.promptFlush);
  }

  private readonly promptFlush = () => {
    this.promptScheduled = false;
    if (this.stopped) return;
    this.hooks.afterBatch();
    this.wakeIfUrgent();
  };

  /** After a batch while idle: what it sent may need the fine tick (a reliable send leaves through a batch). */
  private wakeIfUrgent(): void {
    if (this.period === this.fastPeriod || this.stopped || this.options.mode !== 'auto') return;
    if (this.hooks.urgent?.() ?? true) this.arm(this.fastPeriod);
  }

  /**
   * Asks for `afterBatch` at the end of this tick: in auto mode once the current event-loop turn
   * is done (so everything sent or received in it shares datagrams); in manual mode `update` ends with it.
   */
  requestFlush(): void {
    if (this.options.mode !== 'auto' || this.batchScheduled || this.stopped) return;
    this.batchScheduled = true;
    setImmediate(this.batchFlush);
  }

  /** Made once, not a closure per request (a request follows each datagram received). */
  private readonly batchFlush = () => {
    this.batchScheduled = false;
    if (this.stopped) return;
    this.hooks.afterBatch();
    this.wakeIfUrgent();
  };

  /**
   * Auto mode: calls `wake` at `at` (clock seconds) or soon after, between ticks: a loss verdict due a few ms on
   * (a unit overtaken, its reorder allowance running out) would otherwise wait for the next tick or datagram, up
   * to 10 ms. One timer, armed for the earliest time asked; manual mode's `update` suffices.
   */
  wakeAt(at: number): void {
    if (this.options.mode !== 'auto' || this.stopped || at >= this.wakeTime) return;
    if (this.wakeTimer !== undefined) this.options.scheduler.clearTimer(this.wakeTimer);
    this.wakeTime = at;
    this.armWake();
  }

  private armWake(): void {
    const delay = Math.max(1, Math.ceil((this.wakeTime - this.options.clock()) * 1000));
    this.wakeTimer = this.options.scheduler.setTimer(this.onWake, delay);
  }

  private readonly onWake = (): void => {
    this.wakeTimer = undefined;
    if (this.stopped) return;
    // The event loop's timer clock is cached at the start of its turn: a timer can fire a little before the time
    // asked, when what is due is not due yet. It waits out the rest.
    if (this.options.clock() < this.wakeTime) return this.armWake();
    this.wakeTime = Infinity;
    this.hooks.wake?.();
  };

  /** Manual mode's poll: handle everything received, then service. In auto mode, just services. */
  update(): void {
    if (this.stopped) return;
    const batch = this.inbox.splice(0, this.inbox.length);
    for (const [data, from] of batch) {
      if (this.stopped) return;
      this.hooks.handleDatagram(data, from);
    }
    this.hooks.service(this.options.clock());
    if (!this.stopped) this.hooks.afterBatch();
  }

  /** Stops timers and discards the inbox. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.options.scheduler.clearTimer(this.timer);
    if (this.wakeTimer !== undefined) this.options.scheduler.clearTimer(this.wakeTimer);
    this.inbox.length = 0;
  }
}
