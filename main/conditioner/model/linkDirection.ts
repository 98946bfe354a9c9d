import { resolveLinkProfile, type LinkProfile } from '../linkProfile';

/** client → server is 'upstream', server → client is 'downstream'. */
export type LinkDirection = 'upstream' | 'downstream';

/**
 * Validates a run-time profile change against the current settings and returns the full profile for each direction
 * it touches; throws (TypeError for a bad direction, LinkProfileError for a bad value) before anything changes.
 */
export function resolveProfileChange(
  direction: LinkDirection | 'both',
  patch: Partial<LinkProfile>,
  current: (direction: LinkDirection) => LinkProfile,
): [LinkDirection, LinkProfile][] {
  if (direction !== 'upstream' && direction !== 'downstream' && direction !== 'both') {
    throw new TypeError(`direction must be 'upstream', 'downstream' or 'both', got ${JSON.stringify(direction)}`);
  }
  const directions: LinkDirection[] = direction === 'both' ? ['upstream', 'downstream'] : [direction];
  return directions.map((d) => [d, resolveLinkProfile(patch, current(d))]);
}
