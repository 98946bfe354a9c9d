/** How a stream of messages numbered 0..n-1 fared. */
export interface DeliveryTally {
  delivered: number;
  /** Numbers never delivered. */
  lost: number;
  /** Deliveries of a number already delivered. */
  duplicated: number;
  /** Deliveries of a number lower than one delivered before it. */
  outOfOrder: number;
  /** Deliveries that are not a number in 0..n-1. */
  foreign: number;
}

/** Records the numbers a receiver got on one stream, to tally them against what was sent. */
export class DeliveryLog {
  readonly values: unknown[] = [];

  /** Records one delivery. */
  record(value: unknown): void {
    this.values.push(value);
  }

  get length(): number {
    return this.values.length;
  }

  /** Loss, duplication and ordering of the deliveries against the numbers 0..n-1. */
  tally(n: number): DeliveryTally {
    const seen = new Uint8Array(n);
    const t: DeliveryTally = { delivered: this.values.length, lost: 0, duplicated: 0, outOfOrder: 0, foreign: 0 };
    let highest = -1;
    for (const v of this.values) {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= n) {
        t.foreign += 1;
        continue;
      }
      if (seen[v]) t.duplicated += 1;
      seen[v] = 1;
      if (v < highest) t.outOfOrder += 1;
      highest = Math.max(highest, v);
    }
    for (const s of seen) if (!s) t.lost += 1;
    return t;
  }

  /** Distinct numbers in 0..n-1 delivered. */
  distinct(n: number): number {
    return n - this.tally(n).lost;
  }
}
