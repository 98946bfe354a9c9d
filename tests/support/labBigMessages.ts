/** Large messages numbered 0..n-1 whose content is known in advance, so a receiver can check them byte for byte. */
export class BigMessages {
  private readonly texts: string[] = [];

  constructor(
    /** Characters per message (ASCII, so also its size in bytes). */
    readonly size: number,
    private readonly random: () => number,
  ) {}

  /** Payload of message `i`: `{ i, s }` with `size` pseudo-random letters, the same on every call. */
  message(i: number): { i: number; s: string } {
    return { i, s: this.text(i) };
  }

  /** The number of a received payload when its text is exactly the one sent, else -1 (counted as foreign). */
  check(payload: Record<string, unknown>): number {
    const i = payload.i;
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= this.texts.length) return -1;
    return payload.s === this.texts[i] ? i : -1;
  }

  private text(i: number): string {
    while (this.texts.length <= i) {
      const chars = new Array<string>(this.size);
      for (let k = 0; k < this.size; k++) chars[k] = String.fromCharCode(97 + Math.floor(this.random() * 26));
      this.texts.push(chars.join(''));
    }
    return this.texts[i]!;
  }
}
