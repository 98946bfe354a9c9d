import type { Scheduler, TimerHandle } from '../../base/scheduler';

/** Far below any timer's resolution, far above float rounding of ms near the clock's magnitude. */
const ROUNDING_MS = 1e-6;

/** Options of {@link FixedTickLoop}. */
export interface FixedTickLoopOptions {
  /** Its repeating timer wakes the loop up; the ticks themselves follow its clock. */
  readonly scheduler: Scheduler;
  /** Seconds per tick. */
  readonly dt: number;
  readonly onTick: () => void;
  /** Timer period in ms; well under a tick so ticks (and snapshots) start within ~4 ms of when due. Default 4. */
  readonly pollMs?: number;
  /**
   * Most ticks run in one wake-up; a longer stall is dropped rather than replayed in a burst. Default 15 (0.25 s at
   * 60 Hz): shorter stalls are caught up so host time keeps pace with the clock clients map snapshots onto.
   */
  readonly maxCatchUp?: number;
}

/**
 * Runs `onTick` at a fixed rate from a coarse timer: each wake-up runs every tick that has come due by the clock
 * (an accumulator), so the simulation rate does not drift with timer jitter.
 */
export class FixedTickLoop {
  /** When the next tick is due, on the scheduler's clock (ms). */
  private nextAt = 0;
  private readonly dtMs: number;
  private wakeUp: TimerHandle | undefined;
  private droppedTicks = 0;

  constructor(private readonly options: FixedTickLoopOptions) {
    if (!(options.dt > 0 && Number.isFinite(options.dt))) throw new RangeError(`dt must be > 0, got ${options.dt}`);
    this.dtMs = options.dt * 1000;
  }

  /** Whether the timer is running. */
  get running(): boolean {
    return this.wakeUp !== undefined;
  }

  /** Ticks skipped because the process stalled for longer than maxCatchUp ticks. */
  get dropped(): number {
    return this.droppedTicks;
  }

  /** Seconds since the last tick was due, clamped to [0, dt]: where "now" falls between ticks. */
  sinceLastTick(): number {
    if (!this.running) return 0;
    const since = (this.options.scheduler.now() - (this.nextAt - this.dtMs)) / 1000;
    return Math.min(this.options.dt, Math.max(0, since));
  }

  /** Starts ticking; the first tick comes due one dt from now. */
  start(): void {
    if (this.wakeUp !== undefined) return;
    this.nextAt = this.options.scheduler.now() + this.dtMs;
    this.wakeUp = this.options.scheduler.setRepeating(() => this.pump(), this.options.pollMs ?? 4);
  }

  /** Stops ticking (also from inside onTick). */
  stop(): void {
    if (this.wakeUp === undefined) return;
    this.options.scheduler.clearTimer(this.wakeUp);
    this.wakeUp = undefined;
  }

  /** Runs the ticks that are due; returns how many ran. Called by the timer. */
  pump(): number {
    const { scheduler, onTick } = this.options;
    const dt = this.dtMs;
    const maxCatchUp = this.options.maxCatchUp ?? 15;
    // A tick of 1/60 s is a fraction of ms: sums of it made in another order differ in the last bits, not in time.
    const now = scheduler.now() + ROUNDING_MS;
    let ran = 0;
    while (this.running && now >= this.nextAt && ran < maxCatchUp) {
      this.nextAt += dt;
      ran += 1;
      onTick();
    }
    if (this.running && now >= this.nextAt) {
      const behind = Math.floor((now - this.nextAt) / dt) + 1;
      this.droppedTicks += behind;
      this.nextAt += behind * dt;
    }
    return ran;
  }
}
