export { seededRandom } from '../../support/seededRandom';

/** A random integer in [0, limit). */
export function randomInt(random: () => number, limit: number): number {
  return Math.floor(random() * limit);
}
