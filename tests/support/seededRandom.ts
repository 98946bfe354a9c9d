import { SeededRandom } from '../../shared/random/prng';

/** The project's one PRNG as a draw function, for tests that take `() => number`: floats in [0, 1), repeatable. */
export function seededRandom(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}
