/** Impairments of one direction of an in-memory link. */
export interface Impairment {
  loss?: number;
  duplicate?: number;
  latency?: number;
  /** Uniform ± spread on latency: reorders datagrams. */
  jitter?: number;
  /** Extra filter: true drops the datagram (e.g. only reliable ones). */
  drop?: (datagram: Uint8Array) => boolean;
  /** Extra delay of one datagram, seconds (e.g. hold some back so later ones overtake them). */
  delay?: (datagram: Uint8Array) => number;
}

/** The two ends of a simulated pair. */
export type Side = 'a' | 'b';

/**
 * Datagrams in transit between two in-memory endpoints on a virtual clock: loss, duplication,
 * latency and jitter drawn from a seeded source, delivered in time order (send order on ties).
 */
export class ImpairedQueue {
  private queue: Array<{ at: number; order: number; to: Side; datagram: Uint8Array }> = [];
  private order = 0;

  constructor(
    private readonly random: () => number,
    private readonly deliver: (to: Side, datagram: Uint8Array) => void,
  ) {}

  /** Puts a datagram on its way to `to` at `now`, through `imp`. */
  send(to: Side, datagram: Uint8Array, imp: Impairment, now: number): void {
    if (imp.drop?.(datagram)) return;
    if (this.random() < (imp.loss ?? 0)) return;
    const copies = this.random() < (imp.duplicate ?? 0) ? 2 : 1;
    for (let i = 0; i < copies; i++) {
      const delay = (imp.latency ?? 0) + (this.random() * 2 - 1) * (imp.jitter ?? 0) + (imp.delay?.(datagram) ?? 0);
      this.queue.push({ at: now + Math.max(0, delay), order: this.order++, to, datagram });
    }
  }

  /** Delivers everything due by `now`. */
  deliverDue(now: number): void {
    const due = this.queue.filter((p) => p.at <= now).sort((x, y) => x.at - y.at || x.order - y.order);
    if (due.length === 0) return;
    this.queue = this.queue.filter((p) => p.at > now);
    for (const p of due) this.deliver(p.to, p.datagram);
  }
}
