/** A seeded source of uniform numbers; one per link direction so each direction repeats on its own. */
export interface Prng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform unsigned 32-bit integer. */
  nextUint32(): number;
}

const GOLDEN_GAMMA = 0x9e3779b9;

/** Murmur3's 32-bit finaliser: a bijective avalanche mix, so distinct inputs give well-spread outputs. */
export function mix32(value: number): number {
  let z = value >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Derives an independent seed for a named sub-stream (e.g. one per direction) from a parent seed. */
export function deriveSeed(seed: number, stream: number): number {
  return mix32((seed >>> 0) ^ mix32(stream + GOLDEN_GAMMA));
}

/**
 * Creates a generator: a Weyl sequence (step by the golden-ratio constant, period 2^32) passed through mix32.
 * Small, fast, allocation-free, and good enough for simulation draws (not for cryptography).
 */
export function createPrng(seed: number): Prng {
  if (!Number.isFinite(seed)) throw new RangeError(`PRNG seed must be a finite number, got ${seed}`);
  let state = Math.trunc(seed) >>> 0;
  const nextUint32 = (): number => {
    state = (state + GOLDEN_GAMMA) >>> 0;
    return mix32(state);
  };
  return {
    nextUint32,
    next: () => nextUint32() / 4294967296,
  };
}
