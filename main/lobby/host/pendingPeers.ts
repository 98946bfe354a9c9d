import type { Scheduler } from '../../base/scheduler';

/**
 * Where a connected peer is on its way into the room: `silent` (said nothing yet), `heard` (sent its hello),
 * `challenged` (owes the answer to a password challenge), `leaving` (refused; the notice is on its way).
 */
export type PendingStage = 'silent' | 'heard' | 'challenged' | 'leaving';

/** One peer not yet in the room. */
export interface PendingPeer<C> {
  readonly id: number;
  readonly address: string;
  /** When it is dropped unless admitted, on the clock's scale (moved on once if the host itself stalled past it). */
  deadline: number;
  stage: PendingStage;
  /** What the challenge was (its half of the password exchange, the hello) while `challenged`. */
  challenge: C | undefined;
}

/** Options of {@link PendingPeers}. */
export interface PendingPeersOptions {
  /** Peers held before the room at once; beyond it the oldest (silent first) makes way for a newcomer. */
  readonly budget: number;
  /** Silent peers held at once from one address; beyond it that address's oldest silent one makes way. */
  readonly perSource: number;
  /** Milliseconds from connecting to being admitted. */
  readonly deadlineMs: number;
  readonly clock: Scheduler;
  /** Called with each peer whose deadline passed (already forgotten here). */
  readonly onExpired: (id: number) => void;
}

/**
 * How late the deadline timer may fire before the host counts itself as stalled (starved by a busy machine, a long
 * GC) rather than the peer as silent: the timer runs before the datagrams waiting in the socket are read, so a hello
 * that arrived during the stall has not been heard yet.
 */
export const STALL_MS = 250;
/** Time a peer whose deadline passed during a stall gets once the host runs again, for what waits to be read. */
export const STALL_GRACE_MS = 500;

/**
 * The pre-lobby slots: peers that connected but are not in the room yet. They never count against the room's
 * capacity; they have a small budget of their own, per-address limits, and one deadline each, served by a single
 * timer for the oldest (arrival order is deadline order) so a flood of connections costs no timer per peer.
 */
export class PendingPeers<C> {
  private readonly entries = new Map<number, PendingPeer<C>>();
  private timer: unknown;
  private armedAt: number | undefined;

  constructor(private readonly options: PendingPeersOptions) {
    if (!(Number.isInteger(options.budget) && options.budget >= 1)) throw new RangeError('budget must be ≥ 1');
    if (!(Number.isInteger(options.perSource) && options.perSource >= 1)) throw new RangeError('perSource must be ≥ 1');
  }

  /** Peers held now. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether a deadline timer is armed (at most one ever is). */
  get timerArmed(): boolean {
    return this.timer !== undefined;
  }

  /** The peer, while pending. */
  get(id: number): PendingPeer<C> | undefined {
    return this.entries.get(id);
  }

  /** Takes a newly connected peer; returns the ids dropped to make room (already forgotten here), oldest first. */
  add(id: number, address: string): number[] {
    const deadline = this.options.clock.now() + this.options.deadlineMs;
    this.entries.set(id, { id, address, deadline, stage: 'silent', challenge: undefined });
    const dropped: number[] = [];
    const sameSource = [...this.entries.values()].filter((p) => p.stage === 'silent' && p.address === address);
    for (let i = 0; sameSource.length - i > this.options.perSource; i++) dropped.push(this.drop(sameSource[i]!.id));
    while (this.entries.size > this.options.budget) dropped.push(this.drop(this.victim(id)));
    this.arm();
    return dropped;
  }

  /** Marks a hello heard; false when the peer is unknown or had already spoken (one hello per connection). */
  hear(id: number): boolean {
    const peer = this.entries.get(id);
    if (peer?.stage !== 'silent') return false;
    peer.stage = 'heard';
    return true;
  }

  /** Records the challenge a heard peer now owes an answer to. */
  challenge(id: number, challenge: C): void {
    const peer = this.entries.get(id);
    if (peer?.stage !== 'heard') return;
    peer.stage = 'challenged';
    peer.challenge = challenge;
  }

  /** Hands out a peer's challenge once (a challenge answers one proof, never two), leaving the peer `heard`. */
  takeChallenge(id: number): C | undefined {
    const peer = this.entries.get(id);
    if (peer?.stage !== 'challenged') return undefined;
    const { challenge } = peer;
    peer.stage = 'heard';
    peer.challenge = undefined;
    return challenge;
  }

  /** Marks a refused peer: it still holds its slot until it is gone, but is the first to make way. */
  leave(id: number): void {
    const peer = this.entries.get(id);
    if (!peer) return;
    peer.stage = 'leaving';
    peer.challenge = undefined;
  }

  /** Forgets a peer (admitted or gone); false when it was not pending. */
  remove(id: number): boolean {
    if (!this.entries.delete(id)) return false;
    this.arm();
    return true;
  }

  /** Forgets everyone and disarms the timer. */
  clear(): void {
    this.entries.clear();
    this.arm();
  }

  private drop(id: number): number {
    this.entries.delete(id);
    return id;
  }

  /** The oldest leaving peer, else the oldest silent one, else the oldest; never `newcomer`. */
  private victim(newcomer: number): number {
    let silent: number | undefined;
    let oldest: number | undefined;
    for (const peer of this.entries.values()) {
      if (peer.id === newcomer) continue;
      if (peer.stage === 'leaving') return peer.id;
      if (peer.stage === 'silent') silent ??= peer.id;
      oldest ??= peer.id;
    }
    return silent ?? oldest ?? newcomer;
  }

  /** Points the one timer at the oldest deadline, or disarms it when nobody is pending. */
  private arm(): void {
    const first = this.entries.values().next().value;
    if (first?.deadline === this.armedAt) return;
    const { clock } = this.options;
    if (this.timer !== undefined) clock.clearTimer(this.timer);
    this.timer = undefined;
    this.armedAt = first?.deadline;
    if (first) this.timer = clock.setTimer(() => this.expire(), Math.max(0, first.deadline - clock.now()));
  }

  private expire(): void {
    const now = this.options.clock.now();
    const late = now - (this.armedAt ?? now);
    this.timer = undefined;
    this.armedAt = undefined;
    if (late > STALL_MS) return this.graceAfterStall(now);
    const expired: number[] = [];
    for (const peer of this.entries.values()) {
      if (peer.deadline > now) break;
      expired.push(peer.id);
    }
    for (const id of expired) this.entries.delete(id);
    this.arm();
    for (const id of expired) this.options.onExpired(id);
  }

  /**
   * The host was not running when deadlines passed: each overdue peer gets STALL_GRACE_MS of running host, so its
   * hello is read before it is judged. A silent peer on a punctual host still goes at its deadline, and the slots'
   * budget makes way for newcomers whatever the clock (the flood defence does not wait on deadlines).
   */
  private graceAfterStall(now: number): void {
    for (const peer of this.entries.values()) {
      if (peer.deadline > now) break;
      peer.deadline = now + STALL_GRACE_MS;
    }
    this.arm();
  }
}
