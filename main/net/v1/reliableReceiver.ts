import { sequenceAdd, sequenceDiff, isSequenceNewer } from '../../../shared/net/sequenceMath';

// Module-level copies of imported functions: under a CommonJS transpiler (tsx, vitest) each use of an
// imported binding is a getter call, which shows in the per-message profile.
const add = sequenceAdd;
const diff = sequenceDiff;
const isNewer = isSequenceNewer;

/** What became of one received reliable datagram. */
export type ReceiveStatus = 'new' | 'duplicate' | 'out-of-window';

/** Options of one channel's receiver. */
export interface ReliableReceiverOptions {
  /** true: deliver strictly in sequence order; false: deliver on first arrival. */
  ordered: boolean;
  /** How far ahead of the next expected sequence a datagram may be (the reference keeps ≤ 256 unacked). */
  window?: number;
  /** First expected sequence (0 on the wire; other values let tests cross the 2^32 wrap). */
  startSequence?: number;
}

/** "Nothing received yet" in an ack header: names sequence 2^32-1, which no sender has pending so early. */
export const NO_ACK = { ack: 0xffffffff, bitfield: 0 } as const;

/**
 * One reliable channel's receiving side. Remembers every sequence below `floor` as received
 * (all of them arrived) and each one above it individually, so a late duplicate is never
 * delivered twice and can always be acknowledged again.
 */
export class ReliableReceiver<T> {
  /** Next sequence not yet received; everything before it has arrived. */
  private floor = 0;
  /** How many sequences lie below `floor` (caps at 2^31, all we can tell apart). */
  private advanced = 0;
  private newest = 0;
  private any = false;
  /** Received sequences ≥ floor; ordered channels keep the held-back message. */
  private readonly above = new Map<number, T | undefined>();
  readonly ordered: boolean;
  readonly window: number;

  constructor(options: ReliableReceiverOptions) {
    this.ordered = options.ordered;
    this.window = options.window ?? 1024;
    this.floor = (options.startSequence ?? 0) >>> 0;
  }

  /** Held-back or remembered sequences above the floor (bounded by `window`). */
  get bufferedCount(): number {
    return this.above.size;
  }

  /** Accepts one reliable message; `deliver` is called for each message now ready, in order. */
  receive(sequence: number, message: T, deliver: (message: T) => void): ReceiveStatus {
    const ahead = (sequence - this.floor) >>> 0;
    if (ahead === 0 && this.above.size === 0) {
      // The common case, next in line with nothing held back: no bookkeeping beyond the floor.
      if (!this.any || isNewer(sequence, this.newest)) this.newest = sequence;
      this.any = true;
      this.floor = add(this.floor, 1);
      if (this.advanced < 2 ** 31) this.advanced += 1;
      deliver(message);
      return 'new';
    }
    if (ahead >= this.window) {
      const behind = (this.floor - sequence) >>> 0;
      return behind >= 1 && behind <= this.advanced ? 'duplicate' : 'out-of-window';
    }
    if (this.above.has(sequence)) return 'duplicate';
    if (!this.any || isNewer(sequence, this.newest)) this.newest = sequence;
    this.any = true;
    if (this.ordered) {
      this.above.set(sequence, message);
    } else {
      this.above.set(sequence, undefined);
      deliver(message);
    }
    while (this.above.has(this.floor)) {
      const held = this.above.get(this.floor);
      this.above.delete(this.floor);
      this.floor = add(this.floor, 1);
      if (this.advanced < 2 ** 31) this.advanced += 1;
      if (this.ordered) deliver(held as T);
    }
    return 'new';
  }

  /** Whether `sequence` has been received. */
  has(sequence: number): boolean {
    const behind = (this.floor - sequence) >>> 0;
    if (behind >= 1 && behind <= this.advanced) return true;
    return this.above.has(sequence);
  }

  /** The ack header to send: newest received plus 32 bits of history, or {@link NO_ACK}. */
  ackHeader(): { ack: number; bitfield: number } {
    return this.any ? { ack: this.newest, bitfield: this.bitfieldFor(this.newest) } : NO_ACK;
  }

  /** Whether the normal ack header can name `sequence` (within 32 behind the newest). */
  coveredByHeader(sequence: number): boolean {
    const d = diff(this.newest, sequence);
    return this.any && d >= 0 && d <= 32;
  }

  /**
   * The native acknowledgement: every sequence before the returned `next` has arrived; bit k of
   * `bitmap` (byte k>>3, bit k&7) is set when `next + 1 + k` has. `bitmap` is zeroed and filled;
   * sequences beyond its reach are left out. Returns `next` and the bytes used.
   */
  cumulativeAck(bitmap: Uint8Array): { next: number; length: number } {
    bitmap.fill(0);
    return { next: this.floor, length: this.fillAckBitmap(bitmap) };
  }

  /** The `next` of the native acknowledgement: every sequence before it has arrived. */
  get nextExpected(): number {
    return this.floor;
  }

  /**
   * {@link cumulativeAck} without the object, for the per-tick path: fills the first bytes of `bitmap` (only
   * those, so a 512-byte bitmap is not cleared for every ack) and returns how many it used.
   */
  fillAckBitmap(bitmap: Uint8Array): number {
    if (this.above.size === 0) return 0;
    const bits = bitmap.length * 8;
    let length = 0;
    for (const sequence of this.above.keys()) {
      const k = ((sequence - this.floor) >>> 0) - 1;
      if (k >= 0 && k < bits && (k >> 3) + 1 > length) length = (k >> 3) + 1;
    }
    bitmap.fill(0, 0, length);
    for (const sequence of this.above.keys()) {
      const k = ((sequence - this.floor) >>> 0) - 1;
      if (k >= 0 && k < bits) bitmap[k >> 3] = bitmap[k >> 3]! | (1 << (k & 7));
    }
    return length;
  }

  /** Bit i set when `ack - 1 - i` was received. */
  bitfieldFor(ack: number): number {
    let bits = 0;
    for (let i = 0; i < 32; i++) {
      if (this.has(add(ack, -1 - i))) bits |= 1 << i;
    }
    return bits >>> 0;
  }
}
