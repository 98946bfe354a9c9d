import { lagCompensatedPosition } from '../net/lagCompensation';
import type { SnapshotInterpolator } from '../net/snapshotInterpolator';
import type { PlayerId, Point, PositionLookup } from './gameTypes';

/** Options of {@link createLagCompensatedLookup}. */
export interface LagCompensatedLookupOptions {
  /** The host's recorded position history of a player (arrival-stamped with the host clock), if any. */
  readonly historyFor: (targetId: PlayerId) => SnapshotInterpolator<object> | undefined;
  /** How far back the shooter saw the world, in seconds: typically RTT/2 + its interpolation delay. */
  readonly rewindTimeFor: (shooterId: PlayerId) => number | undefined;
  /** Upper bound on any rewind, so a very laggy (or lying) client cannot tag far into the past. Default 0.35 s. */
  readonly maxRewind?: number;
  /** Where the `{ x, y }` sits inside each history's state, e.g. `['position']`. Default: the state itself. */
  readonly fieldPath?: readonly (string | number)[];
}

/** Default {@link LagCompensatedLookupOptions.maxRewind}. */
export const DEFAULT_MAX_REWIND = 0.35;

function asPoint(value: unknown): Point | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { x, y } = value as { x?: unknown; y?: unknown };
  return typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y)
    ? { x, y }
    : undefined;
}

/**
 * Builds the `rewound` lookup of a game step (StepContext) from per-player histories: the target's position rewound by the
 * shooter's (clamped) rewind time. Undefined (so step falls back to the current position) without a history or rewind.
 */
export function createLagCompensatedLookup(options: LagCompensatedLookupOptions): PositionLookup {
  const maxRewind = options.maxRewind ?? DEFAULT_MAX_REWIND;
  if (!Number.isFinite(maxRewind) || maxRewind < 0) throw new RangeError(`maxRewind must be >= 0, got ${maxRewind}`);
  return (targetId, shooterId) => {
    const history = options.historyFor(targetId);
    const rewind = options.rewindTimeFor(shooterId);
    if (history === undefined || rewind === undefined || !Number.isFinite(rewind)) return undefined;
    const clamped = Math.min(maxRewind, Math.max(0, rewind));
    return asPoint(lagCompensatedPosition(history, clamped, { fieldPath: options.fieldPath ?? [] }));
  };
}
