/**
 * The one seeded PRNG of the project, small enough that its whole state is one unsigned 32-bit number and so can
 * live inside immutable game state: a Weyl sequence (step by the golden-ratio constant, period 2^32) passed
 * through Murmur3's 32-bit finaliser. Gameplay and the link conditioner draw from it; never use it for security.
 */

const WEYL_STEP = 0x9e3779b9;

/** Murmur3's 32-bit finaliser: a bijective avalanche mix, so distinct inputs give well-spread outputs. */
export function mix32(value: number): number {
  let z = value >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** An independent seed for a numbered sub-stream (one per link direction, say) of a parent seed. */
export function deriveSeed(seed: number, stream: number): number {
  return mix32((seed >>> 0) ^ mix32(stream + WEYL_STEP));
}

/** A source of uniform draws; {@link SeededRandom} is the real one, tests may pass a scripted one. */
export interface RandomSource {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform unsigned 32-bit integer. */
  nextUint32(): number;
}

/** Turns any finite number into a generator state (the seed's integer part, mod 2^32). Throws otherwise. */
export function seedState(seed: number): number {
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${String(seed)}`);
  return Math.trunc(seed) >>> 0;
}

/** One draw: an unsigned 32-bit `value` and the generator's `state` after it. Pure. */
export function nextUint32(state: number): { value: number; state: number } {
  const next = (state + WEYL_STEP) >>> 0;
  return { value: mix32(next), state: next };
}

/** A mutable generator around a state number; read `state` back to store it in immutable data. */
export class SeededRandom implements RandomSource {
  private current: number;

  constructor(seed: number) {
    this.current = seedState(seed);
  }

  /** The generator state: `new SeededRandom(r.state)` continues exactly where `r` is. */
  get state(): number {
    return this.current;
  }

  /** Uniform unsigned 32-bit integer: {@link nextUint32}'s step, minus its result object (drawn per datagram). */
  nextUint32(): number {
    this.current = (this.current + WEYL_STEP) >>> 0;
    return mix32(this.current);
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform float in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Uniform integer in [0, maxExclusive); throws unless maxExclusive is a positive safe integer. */
  int(maxExclusive: number): number {
    if (!Number.isSafeInteger(maxExclusive) || maxExclusive <= 0) {
      throw new RangeError(`int() bound must be a positive integer, got ${String(maxExclusive)}`);
    }
    return Math.floor(this.next() * maxExclusive);
  }
}
