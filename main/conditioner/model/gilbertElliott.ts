import type { RandomSource } from '../../../shared/random/prng';

/** Parameters of the two-state (good/bad) Gilbert–Elliott loss channel. */
export interface GilbertElliottParams {
  /** P(good → bad) per datagram. */
  enter: number;
  /** P(bad → good) per datagram. */
  exit: number;
  /** Loss probability in the bad state (the good state loses nothing; independent loss is modelled separately). */
  lossInBad: number;
}

/**
 * Bursty loss as a Markov chain over datagrams: each datagram is judged in the current state, then the state moves.
 * With lossInBad = 1, bursts have mean length 1 / exit and the long-run loss rate is enter / (enter + exit).
 */
export class GilbertElliott {
  private bad = false;

  constructor(
    private params: GilbertElliottParams,
    private readonly rng: RandomSource,
  ) {}

  /** Whether the chain is currently in the bad state. */
  get inBadState(): boolean {
    return this.bad;
  }

  /** Changes parameters in place; turning bursts off (enter = 0) also ends a burst in progress. */
  setParams(params: GilbertElliottParams): void {
    this.params = params;
    if (params.enter === 0) this.bad = false;
  }

  /** Judges one datagram: true if it is lost. Draws nothing while disabled so other streams stay repeatable. */
  lose(): boolean {
    const { enter, exit, lossInBad } = this.params;
    if (!this.bad) {
      if (enter > 0 && this.rng.next() < enter) this.bad = true;
      return false;
    }
    const lost = lossInBad >= 1 || (lossInBad > 0 && this.rng.next() < lossInBad);
    if (this.rng.next() < exit) this.bad = false;
    return lost;
  }
}
