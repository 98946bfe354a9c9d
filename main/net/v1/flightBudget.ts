/**
 * Bytes of reliable units a connection may have unacknowledged at once, shared by its reliable
 * channels: the receiver's advertised window, so a burst never outgrows the receiver's socket buffer
 * (a datagram that finds the buffer full is dropped by the OS and costs a retransmission).
 */
export class FlightBudget {
  /** Bytes sent and not yet acknowledged, all channels. */
  inFlight = 0;
  /** Bytes ever admitted (first transmissions), all channels: what a redundancy budget is a fraction of. */
  admitted = 0;

  constructor(
    /** Most bytes in flight; one unit per channel may always go, so a unit larger than this never stalls. */
    readonly limit: number,
  ) {
    if (!(limit > 0)) throw new RangeError(`flight budget must be positive, got ${limit}`);
  }

  /** Whether `bytes` more may leave now (`idle`: the channel has nothing in flight, so it may always send one). */
  allows(bytes: number, idle: boolean): boolean {
    return idle || this.inFlight + bytes <= this.limit;
  }

  /** Bytes no longer in flight (acknowledged). */
  release(bytes: number): void {
    this.inFlight = Math.max(0, this.inFlight - bytes);
  }
}
