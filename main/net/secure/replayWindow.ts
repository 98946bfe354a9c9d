/**
 * Which datagram counters were already accepted: the highest seen and a bitmap of the `size` before it
 * (as IPsec and WireGuard do). Anything older than the window, or seen before, is a replay.
 */
export class ReplayWindow {
  private highest = -1;
  private readonly bits: Uint32Array;

  constructor(readonly size = 1024) {
    if (!Number.isInteger(size) || size < 32 || size % 32 !== 0) throw new RangeError('window size: a multiple of 32');
    this.bits = new Uint32Array(size / 32);
  }

  /** True when `counter` is new and inside the window (check before the costly authentication). */
  fresh(counter: number): boolean {
    if (counter > this.highest) return true;
    if (counter <= this.highest - this.size) return false;
    return !this.has(counter);
  }

  /** Records an authenticated `counter`; call only after {@link fresh} said yes. */
  accept(counter: number): void {
    if (counter > this.highest) {
      // Clear the slots the window slides over (all of them on a jump wider than the window).
      const steps = Math.min(counter - this.highest, this.size);
      for (let i = 1; i <= steps; i++) this.clear(this.highest + i);
      this.highest = counter;
    }
    const slot = counter % this.size;
    this.bits[slot >>> 5]! |= 1 << (slot & 31);
  }

  private has(counter: number): boolean {
    const slot = counter % this.size;
    return (this.bits[slot >>> 5]! & (1 << (slot & 31))) !== 0;
  }

  private clear(counter: number): void {
    const slot = counter % this.size;
    this.bits[slot >>> 5]! &= ~(1 << (slot & 31));
  }
}
