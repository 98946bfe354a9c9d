/** Ids an accept may name above the lowest unspent one, and how far below it a late redemption still counts. */
export const PEER_ID_WINDOW = 256;

/**
 * A server's peer ids, spent only when a peer comes to exist. A v1 accept is stateless, so it names an id without
 * spending it: the one after the last id named, back to the lowest never given once that is a window ahead of it.
 * Accepts never redeemed (a spoofed source, a lost client) leave the ids where they were. Concurrent accepts name
 * different ids unless a window's worth were named meanwhile (a flood): then the later redemption of a shared id is
 * refused and that client's connect times out. No id is given twice, and one redeemed a window late is refused too.
 */
export class PeerIds {
  /** The id after the highest one spent: none from here up was ever given. */
  private next = 1;
  /** The last id an accept named. */
  private lastNamed = 0;
  /** Ids spent in [next - window, next): a late redemption there is allowed once. */
  private readonly spentBelow = new Set<number>();

  constructor(private readonly max: number) {}

  /** The id for an accept to name (nothing is spent); undefined when the ids are used up. */
  name(): number | undefined {
    let id = this.lastNamed + 1;
    if (id < this.next || id >= this.next + PEER_ID_WINDOW) id = this.next;
    if (id > this.max) return undefined;
    return (this.lastNamed = id);
  }

  /** Spends an accept's id once its client proved its address: false when it was spent already or is too old. */
  redeem(id: number): boolean {
    if (id >= this.next) {
      // The ids skipped stay free for the accepts that named them.
      this.next = id + 1;
      const floor = this.next - PEER_ID_WINDOW;
      for (const old of this.spentBelow) if (old < floor) this.spentBelow.delete(old);
    } else if (id < this.next - PEER_ID_WINDOW || this.spentBelow.has(id)) {
      return false;
    }
    this.spentBelow.add(id);
    return true;
  }

  /** A fresh id spent at once (a native peer exists from its accept); undefined when the ids are used up. */
  take(): number | undefined {
    const id = this.name();
    return id !== undefined && this.redeem(id) ? id : undefined;
  }
}
