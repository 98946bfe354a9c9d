import type { InterpolationDelaySetting } from '../../../shared/game/adaptiveInterpolationDelay';

/** The fixed delays before the adaptive buffer (host: snapshots came in-process; guest: three 30 Hz snapshots). */
export const FIXED_INTERPOLATION_DELAY = { host: 0.05, guest: 0.1 } as const;

/**
 * The interpolation delay a game screen uses: adaptive, unless the page's query asks for the old fixed delays with
 * `interp=fixed` (the key-to-pixel bench prints both in one run).
 */
export function interpolationSettingOf(search: string, isHost: boolean): InterpolationDelaySetting {
  if (new URLSearchParams(search).get('interp') !== 'fixed') return 'adaptive';
  return isHost ? FIXED_INTERPOLATION_DELAY.host : FIXED_INTERPOLATION_DELAY.guest;
}
