/** Bounded reassembly of fragmented native-protocol messages, many in flight at once. */

/** Why `Reassembler.add` refused a fragment (state is left unchanged by every rejection). */
export type ReassemblyRejectReason =
  'bad-index' | 'bad-count' | 'count-mismatch' | 'too-many-fragments' | 'over-budget' | 'too-many-messages';

/** Outcome of offering one fragment to a `Reassembler`. */
export type AddResult =
  | { readonly kind: 'complete'; readonly body: Uint8Array }
  | { readonly kind: 'partial' }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'rejected'; readonly reason: ReassemblyRejectReason };

/** Limits of a `Reassembler`; all are hard caps checked before anything is stored. */
export interface ReassemblerOptions {
  /** Total bytes of buffered pieces across all partial messages (also the largest multi-fragment message). */
  readonly maxBytes: number;
  /** Partial messages held at once; a fragment of a new key beyond this is rejected (nothing is evicted). */
  readonly maxMessages: number;
  /** Largest fragment `count` accepted. */
  readonly maxFragments: number;
  /** Seconds after its first fragment that a partial message is dropped by `expire`; undefined = never (reliable). */
  readonly expireAfter?: number;
  /** How many recently completed keys are remembered so late duplicates are not restarted (default 256). */
  readonly rememberCompleted?: number;
}

interface PartialMessage {
  readonly count: number;
  /** Sparse, `count` long; allocated only after `count <= maxFragments` was checked. */
  readonly pieces: (Uint8Array | undefined)[];
  received: number;
  bytes: number;
  readonly firstAt: number;
}

const PARTIAL: AddResult = Object.freeze({ kind: 'partial' });
const DUPLICATE: AddResult = Object.freeze({ kind: 'duplicate' });
const rejected = (reason: ReassemblyRejectReason): AddResult => ({ kind: 'rejected', reason });

function checkLimit(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= min)) {
    throw new RangeError(`Reassembler: ${name} must be a finite number >= ${min}, got ${value}`);
  }
}

/**
 * Collects fragments keyed by a caller-chosen number (the caller owns namespacing: one instance per channel, or a
 * combined key). Pieces are copied on arrival, so buffered memory is exactly `bufferedBytes` plus bookkeeping bounded
 * by maxMessages × maxFragments, and the caller may reuse its datagram buffers.
 *
 * Recently completed keys (the last `rememberCompleted`) answer 'duplicate' to late fragments instead of opening a
 * partial message that could never complete. That memory is best effort: a duplicate older than it starts a new
 * partial, which unreliable callers expire and reliable callers should prevent by deduplicating on sequence first.
 */
export class Reassembler {
  private readonly partials = new Map<number, PartialMessage>();
  private readonly completed = new Set<number>();
  private readonly completedOrder: number[] = [];
  private readonly rememberCompleted: number;
  private buffered = 0;

  constructor(private readonly options: ReassemblerOptions) {
    checkLimit('maxBytes', options.maxBytes, 0);
    checkLimit('maxMessages', options.maxMessages, 1);
    checkLimit('maxFragments', options.maxFragments, 1);
    checkLimit('expireAfter', options.expireAfter, 0);
    checkLimit('rememberCompleted', options.rememberCompleted, 0);
    this.rememberCompleted = Math.floor(options.rememberCompleted ?? 256);
  }

  /** Bytes of pieces currently held across all partial messages. */
  get bufferedBytes(): number {
    return this.buffered;
  }

  /** Number of partial (incomplete) messages held. */
  get partialCount(): number {
    return this.partials.size;
  }

  /**
   * Offers fragment `index` of `count` for message `key`, received at `now` (seconds). A count of 1 completes at
   * once; a completed body is one fresh contiguous copy. Every piece of a multi-fragment message counts against
   * maxBytes, the completing one included, so a message larger than maxBytes is always 'over-budget'.
   */
  add(key: number, index: number, count: number, piece: Uint8Array, now: number): AddResult {
    if (!Number.isInteger(count) || count < 1) return rejected('bad-count');
    if (count > this.options.maxFragments) return rejected('too-many-fragments');
    if (!Number.isInteger(index) || index < 0 || index >= count) return rejected('bad-index');
    if (this.completed.has(key)) return DUPLICATE;

    let partial = this.partials.get(key);
    if (partial !== undefined) {
      if (partial.count !== count) return rejected('count-mismatch');
      if (partial.pieces[index] !== undefined) return DUPLICATE;
    } else if (count === 1) {
      this.rememberComplete(key);
      return { kind: 'complete', body: piece.slice() };
    } else if (this.partials.size >= this.options.maxMessages) {
      return rejected('too-many-messages');
    }
    if (this.buffered + piece.length > this.options.maxBytes) return rejected('over-budget');

    if (partial === undefined) {
      partial = { count, pieces: new Array<Uint8Array | undefined>(count), received: 0, bytes: 0, firstAt: now };
      this.partials.set(key, partial);
    }
    partial.pieces[index] = piece.slice();
    partial.received++;
    partial.bytes += piece.length;
    this.buffered += piece.length;
    if (partial.received < count) return PARTIAL;

    this.drop(key, partial);
    this.rememberComplete(key);
    const body = new Uint8Array(partial.bytes);
    let offset = 0;
    for (const p of partial.pieces) {
      // Every slot is filled once received === count (duplicates never increment `received`).
      body.set(p as Uint8Array, offset);
      offset += (p as Uint8Array).length;
    }
    return { kind: 'complete', body };
  }

  /** Drops partial messages whose first fragment arrived more than expireAfter seconds before `now`; returns how many. */
  expire(now: number): number {
    const limit = this.options.expireAfter;
    if (limit === undefined) return 0;
    let dropped = 0;
    for (const [key, partial] of this.partials) {
      if (now - partial.firstAt > limit) {
        this.drop(key, partial);
        dropped++;
      }
    }
    return dropped;
  }

  /** Drops one partial message (e.g. after the caller gave up on it); returns whether it existed. */
  discard(key: number): boolean {
    const partial = this.partials.get(key);
    if (partial === undefined) return false;
    this.drop(key, partial);
    return true;
  }

  /** Forgets every partial message and the memory of completed keys. */
  clear(): void {
    this.partials.clear();
    this.completed.clear();
    this.completedOrder.length = 0;
    this.buffered = 0;
  }

  private drop(key: number, partial: PartialMessage): void {
    this.partials.delete(key);
    this.buffered -= partial.bytes;
  }

  private rememberComplete(key: number): void {
    if (this.rememberCompleted === 0) return;
    this.completed.add(key);
    this.completedOrder.push(key);
    if (this.completedOrder.length > this.rememberCompleted) {
      this.completed.delete(this.completedOrder.shift() as number);
    }
  }
}
