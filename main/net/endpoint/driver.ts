import type { DatagramSource } from './datagramSocket';
import { DropReason, type TrafficCounters } from '../v1/stats';

const settled = Promise.resolve();

/** How an endpoint is driven: by its own timers, or by `update(dt)` from a game loop. */
export type DriveMode = 'auto' | 'manual';

/** What the driver calls on its owner. */
export interface DriverHooks {
  handleDatagram(data: Uint8Array, from: DatagramSource): void;
  service(now: number): void;
  /** Called after a batch of datagrams in auto mode, to send acks promptly. */
  afterBatch(): void;
}

/** Options of {@link EndpointDriver}. */
export interface DriverOptions {
  mode: DriveMode;
  clock: () => number;
  /** Service period in auto mode, seconds. */
  tickInterval?: number;
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
  private timer: NodeJS.Timeout | undefined;
  private batchScheduled = false;
  private promptScheduled = false;
  private stopped = false;

  constructor(
    private readonly hooks: DriverHooks,
    private readonly options: DriverOptions,
  ) {
    if (options.mode === 'auto') {
      const period = (options.tickInterval ?? 0.01) * 1000;
      this.timer = setInterval(() => this.hooks.service(this.options.clock()), period);
      this.timer.unref();
    }
  }

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
    settled.then(this.promptFlush);
  }

  private readonly promptFlush = () => {
    this.promptScheduled = false;
    if (!this.stopped) this.hooks.afterBatch();
  };

  /**
   * Asks for `afterBatch` at the end of this tick: in auto mode once the current event-loop turn
   * is done (so everything sent or received in it shares datagrams); in manual mode `update` ends with it.
   */
  requestFlush(): void {
    if (this.options.mode !== 'auto' || this.batchScheduled || this.stopped) return;
    this.batchScheduled = true;
    setImmediate(() => {
      this.batchScheduled = false;
      if (!this.stopped) this.hooks.afterBatch();
    });
  }

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
    if (this.timer) clearInterval(this.timer);
    this.inbox.length = 0;
  }
}
