/**
 * The one log budget of main (renderer error reports, refused connections): a fixed window admits its first
 * `perWindow` reports and counts the rest, so one line can say how many were dropped. A window starts with the
 * first report after the previous one ended. Pure: the caller passes the time.
 */
export class ReportLimiter {
  private windowStart: number | null = null;
  private admitted = 0;
  private suppressed = 0;

  constructor(
    readonly perWindow: number,
    readonly windowMs: number,
  ) {}

  /** Whether the window that held the last report is over at `now` (none yet counts as over). */
  windowOver(now: number): boolean {
    return this.windowStart === null || now - this.windowStart >= this.windowMs;
  }

  /** When the current window ends; meaningful once something was admitted. */
  windowEndsAt(): number {
    return (this.windowStart ?? 0) + this.windowMs;
  }

  /** Counts a report at `now`: true when it is within the budget, false when it is to be suppressed. */
  admit(now: number): boolean {
    if (this.windowOver(now)) {
      this.windowStart = now;
      this.admitted = 0;
    }
    if (this.admitted < this.perWindow) {
      this.admitted += 1;
      return true;
    }
    this.suppressed += 1;
    return false;
  }

  /** How many were suppressed since the last call, and starts counting again from zero. */
  drainSuppressed(): number {
    const count = this.suppressed;
    this.suppressed = 0;
    return count;
  }
}
