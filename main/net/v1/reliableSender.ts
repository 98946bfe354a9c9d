import { Wire } from './protocol';
import { sequenceAdd, sequenceDiff } from '../../../shared/net/sequenceMath';
import { SendQueueFullError } from '../errors';
import type { FlightBudget } from './flightBudget';

// Module-level copies of imported constants and functions: under a CommonJS transpiler (tsx, vitest) each
// use of an imported binding is a getter call, which shows in the per-message profile.
const diff = sequenceDiff;
const add = sequenceAdd;

/** A reliable message on the wire, waiting for its acknowledgement. */
export interface InFlight<T = Uint8Array> {
  readonly sequence: number;
  readonly body: T;
  firstSent: number;
  lastSent: number;
  /** Times sent in all; bounds how long a peer may go without acknowledging. */
  attempts: number;
  /** Retransmission timeouts that expired; only these back the timeout off (fast retransmits do not). */
  timeouts: number;
}

/** What the per-acknowledgement queries return when nothing is due: one shared array, not a new one per ack. */
const NONE: readonly never[] = Object.freeze([]);

/** Limits of one channel's sender. */
export interface ReliableSenderOptions<T = Uint8Array> {
  /** Most sequences in flight at once: never more than one ack header can confirm (33). */
  window?: number;
  /** Most messages waiting behind the window before `enqueue` refuses. */
  maxQueued?: number;
  /** First sequence number (0 on the wire; other values let tests cross the 2^32 wrap). */
  startSequence?: number;
  /** Most sequences one acknowledgement can confirm: 33 for a v1 header, the bitmap's reach in native mode. */
  ackReach?: number;
  /** Bytes in flight shared with the connection's other channels (native); absent: counted in units only. */
  budget?: FlightBudget;
  /** A body's bytes against the budget. */
  weigh?: (body: T) => number;
}

/**
 * One reliable channel's sending side: numbers messages from 0, keeps at most `window`
 * consecutive sequences unacknowledged (so a v1 ack header can always confirm all of them),
 * queues the rest, and tells the caller what to (re)transmit.
 */
export class ReliableSender<T = Uint8Array> {
  private nextSequence = 0;
  /** Newest sequence the other side has confirmed; a gap behind it means loss. */
  private highestAcked: number | undefined;
  /**
   * In-flight entries by `sequence & mask`: every unacknowledged sequence lies in [head, nextSequence),
   * a span never wider than the window, so slots never collide and acks free a unit without a lookup.
   */
  private readonly ring: (InFlight<T> | undefined)[];
  private readonly mask: number;
  /** Oldest sequence not known to be acknowledged; its slot is occupied whenever anything is in flight. */
  private head = 0;
  private count = 0;
  private readonly backlog: (T | undefined)[] = [];
  private backlogHead = 0;
  readonly window: number;
  readonly maxQueued: number;
  private readonly budget: FlightBudget | undefined;
  private readonly weigh: (body: T) => number;

  constructor(options: ReliableSenderOptions<T> = {}) {
    const reach = options.ackReach ?? Wire.ACK_WINDOW;
    this.window = Math.min(options.window ?? reach, reach);
    this.maxQueued = options.maxQueued ?? 65_536;
    this.budget = options.budget;
    this.weigh = options.weigh ?? (() => 0);
    this.nextSequence = (options.startSequence ?? 0) >>> 0;
    this.head = this.nextSequence;
    let size = 1;
    while (size < this.window) size *= 2;
    this.ring = new Array<InFlight<T> | undefined>(size).fill(undefined);
    this.mask = size - 1;
  }

  /** Messages sent but not yet acknowledged. */
  get inFlightCount(): number {
    return this.count;
  }

  /** Messages waiting for room in the window. */
  get queuedCount(): number {
    return this.backlog.length - this.backlogHead;
  }

  /** Sequence the next enqueued body will carry (bodies are numbered in queue order). */
  get nextEnqueuedSequence(): number {
    return (this.nextSequence + this.backlog.length - this.backlogHead) >>> 0;
  }

  /**
   * Whether `count` more bodies fit (so a fragmented message is queued whole or not at all): `maxQueued`
   * beyond the room left in the window, whether or not the caller has moved them into the window yet.
   */
  canQueue(count: number): boolean {
    return this.queuedCount + count <= this.maxQueued + this.windowRoom();
  }

  /** Queues a body; throws {@link SendQueueFullError} rather than grow without bound. */
  enqueue(body: T): void {
    if (!this.canQueue(1)) throw new SendQueueFullError(this.maxQueued);
    this.backlog.push(body);
  }

  /** Sequences the window can still take. */
  private windowRoom(): number {
    return this.window - ((this.nextSequence - this.head) >>> 0);
  }

  /** Moves queued messages into the window while it has room; the caller transmits what is returned. */
  takeSendable(now: number): InFlight<T>[] {
    const count = this.admitSendable(now);
    const out: InFlight<T>[] = [];
    for (let i = count; i > 0; i--) out.push(this.entryAt(this.nextSequence - i)!);
    return out;
  }

  /**
   * Moves queued messages into the window while it has room and returns how many: the newest `count`
   * in flight, sequences {@link windowEnd} − count up to windowEnd − 1 (read them with {@link entryAt}).
   * Builds no array, for the per-tick path.
   */
  admitSendable(now: number): number {
    if (this.backlogHead >= this.backlog.length || !this.hasRoom()) return 0;
    const budget = this.budget;
    let admitted = 0;
    while (this.backlogHead < this.backlog.length && this.hasRoom()) {
      const body = this.backlog[this.backlogHead] as T;
      if (budget !== undefined) {
        const bytes = this.weigh(body);
        if (!budget.allows(bytes, this.count === 0)) break;
        budget.inFlight += bytes;
        budget.admitted += bytes;
      }
      this.backlog[this.backlogHead++] = undefined;
      const entry: InFlight<T> = {
        sequence: this.nextSequence,
        body,
        firstSent: now,
        lastSent: now,
        attempts: 1,
        timeouts: 0,
      };
      this.ring[entry.sequence & this.mask] = entry;
      this.count += 1;
      this.nextSequence = (this.nextSequence + 1) >>> 0;
      admitted += 1;
    }
    if (this.backlogHead > 1024 && this.backlogHead * 2 > this.backlog.length) {
      this.backlog.splice(0, this.backlogHead);
      this.backlogHead = 0;
    }
    return admitted;
  }

  /** One past the newest sequence in flight: where the next admitted message goes. */
  get windowEnd(): number {
    return this.nextSequence;
  }

  /** The in-flight entry for `sequence`, if it is in flight. */
  entryAt(sequence: number): InFlight<T> | undefined {
    const entry = this.ring[(sequence >>> 0) & this.mask];
    return entry !== undefined && entry.sequence === sequence >>> 0 ? entry : undefined;
  }

  /** The oldest unacknowledged message, if any. */
  oldest(): InFlight<T> | undefined {
    return this.count === 0 ? undefined : this.ring[this.head & this.mask];
  }

  /** The newest unacknowledged message (highest sequence in flight), if any. */
  newest(): InFlight<T> | undefined {
    if (this.count === 0) return undefined;
    for (let seq = (this.nextSequence - 1) >>> 0; ; seq = (seq - 1) >>> 0) {
      const entry = this.ring[seq & this.mask];
      if (entry !== undefined && entry.sequence === seq) return entry;
    }
  }

  /** Newest sequence the other side has confirmed, if any. */
  get highestAcknowledged(): number | undefined {
    return this.highestAcked;
  }

  /** Calls `visit` on each in-flight message, oldest first, until it returns false. */
  scan(visit: (entry: InFlight<T>) => boolean): void {
    for (let seq = this.head; this.count > 0 && seq !== this.nextSequence; seq = (seq + 1) >>> 0) {
      const entry = this.ring[seq & this.mask];
      if (entry !== undefined && !visit(entry)) return;
    }
  }

  /**
   * Frees every in-flight message named by `ack` or a set bit of `bitfield`.
   * Calls `onFreed` for each so the caller can take RTT samples.
   */
  acknowledge(ack: number, bitfield: number, onFreed?: (entry: InFlight<T>) => void): number {
    if (this.count === 0) return 0;
    let freed = this.free(ack, onFreed);
    for (let i = 0; bitfield !== 0 && i < 32; i++) {
      if (bitfield & (1 << i)) freed += this.free(add(ack, -1 - i), onFreed);
    }
    return freed;
  }

  /**
   * Frees everything before `next` and each `next + 1 + k` whose bit k is set in `bitmap`
   * (bit k&7 of byte k>>3): the native acknowledgement, which covers the whole window.
   */
  acknowledgeCumulative(next: number, bitmap: Uint8Array, onFreed?: (entry: InFlight<T>) => void): number {
    // An ack beyond what was ever sent is forged or corrupt: trusting it would free units the peer never got.
    if (diff(next, this.nextSequence) > 0) return 0;
    let freed = 0;
    // `free(head)` moves head past every freed slot, so this walks only what the ack newly confirms.
    while (this.count > 0 && diff(next, this.head) > 0) freed += this.free(this.head, onFreed);
    for (let byte = 0; byte < bitmap.length && this.count > 0; byte++) {
      const bits = bitmap[byte]!;
      if (bits === 0) continue;
      for (let bit = 0; bit < 8; bit++) {
        if (bits & (1 << bit)) freed += this.free(add(next, 1 + byte * 8 + bit), onFreed);
      }
    }
    return freed;
  }

  /**
   * The oldest in-flight messages that at least `FAST_RETRANSMIT_GAP` newer acknowledged ones overtook
   * and that were last sent `fastInterval` or more ago; marks them re-sent. Cheap: stops at the first
   * message not overtaken, so it can run on every acknowledgement.
   */
  dueFast(now: number, fastInterval: number): readonly InFlight<T>[] {
    const highest = this.highestAcked;
    if (highest === undefined || this.count === 0 || diff(highest, this.head) < FAST_RETRANSMIT_GAP) {
      return NONE;
    }
    const out: InFlight<T>[] = [];
    for (let seq = this.head; seq !== this.nextSequence; seq = (seq + 1) >>> 0) {
      const entry = this.ring[seq & this.mask];
      if (entry === undefined) continue;
      if (diff(highest, entry.sequence) < FAST_RETRANSMIT_GAP) break;
      if (now - entry.lastSent < fastInterval) continue;
      entry.lastSent = now;
      entry.attempts += 1;
      out.push(entry);
    }
    return out;
  }

  /**
   * In-flight messages to send again now: those whose timeout (given per expired timeouts) has
   * passed, and those with at least `FAST_RETRANSMIT_GAP` newer sequences already acknowledged
   * (selective-ack evidence of loss), at most once per `fastInterval`. Marks them re-sent at `now`.
   */
  dueForRetransmit(now: number, timeoutFor: (timeouts: number) => number, fastInterval = Infinity): InFlight<T>[] {
    const out: InFlight<T>[] = [];
    const highest = this.highestAcked;
    for (let seq = this.head; this.count > 0 && seq !== this.nextSequence; seq = (seq + 1) >>> 0) {
      const entry = this.ring[seq & this.mask];
      if (entry === undefined) continue;
      const waited = now - entry.lastSent;
      const overtaken = highest !== undefined && diff(highest, entry.sequence) >= FAST_RETRANSMIT_GAP;
      const timedOut = waited >= timeoutFor(entry.timeouts);
      if (timedOut || (overtaken && waited >= fastInterval)) {
        if (timedOut) entry.timeouts += 1;
        entry.lastSent = now;
        entry.attempts += 1;
        out.push(entry);
      }
    }
    return out;
  }

  /** Earliest time any in-flight message becomes due, or Infinity. */
  nextDue(timeoutFor: (timeouts: number) => number): number {
    let due = Infinity;
    for (let seq = this.head; this.count > 0 && seq !== this.nextSequence; seq = (seq + 1) >>> 0) {
      const entry = this.ring[seq & this.mask];
      if (entry !== undefined) due = Math.min(due, entry.lastSent + timeoutFor(entry.timeouts));
    }
    return due;
  }

  private hasRoom(): boolean {
    return this.count === 0 || (this.nextSequence - this.head) >>> 0 < this.window;
  }

  private free(sequence: number, onFreed?: (entry: InFlight<T>) => void): number {
    // Only [head, nextSequence) can be in flight; anything else names a freed or never-sent unit.
    if ((sequence - this.head) >>> 0 >= (this.nextSequence - this.head) >>> 0) return 0;
    const slot = sequence & this.mask;
    const entry = this.ring[slot];
    // The sequence check also refuses a caller's value outside 0..2^32-1 that aliases a slot.
    if (entry === undefined || entry.sequence !== sequence) return 0;
    if (this.highestAcked === undefined || diff(sequence, this.highestAcked) > 0) this.highestAcked = sequence;
    this.ring[slot] = undefined;
    this.count -= 1;
    this.budget?.release(this.weigh(entry.body));
    if (sequence === this.head) {
      if (this.count === 0) this.head = this.nextSequence;
      else while (this.ring[this.head & this.mask] === undefined) this.head = (this.head + 1) >>> 0;
    }
    onFreed?.(entry);
    return 1;
  }
}

/** Newer acknowledged sequences that count as evidence an older one was lost (TCP uses three duplicate acks). */
export const FAST_RETRANSMIT_GAP = 3;
