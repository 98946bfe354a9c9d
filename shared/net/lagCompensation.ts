import type { SnapshotInterpolator } from './snapshotInterpolator';

/** Optional arguments of {@link lagCompensatedPosition}. */
export interface LagCompensationOptions {
  /** Keys to drill into the sampled state, e.g. `['position']`; array indices may be numbers. Default: whole state. */
  readonly fieldPath?: readonly (string | number)[];
  /** Current local time in seconds. Default: the history's own injected `now()`. */
  readonly now?: number;
}

/**
 * Rewinds a target's history to how a laggy shooter saw it: the state sampled at `now - rewindTime` (typically the
 * shooter's RTT/2 plus its interpolation delay), optionally narrowed to `fieldPath`. Undefined when the history is
 * empty or the path does not exist. Throws on a negative or non-finite `rewindTime`.
 */
export function lagCompensatedPosition<T extends object>(
  history: SnapshotInterpolator<T>,
  rewindTime: number,
  options?: Omit<LagCompensationOptions, 'fieldPath'>,
): T | undefined;
export function lagCompensatedPosition<T extends object>(
  history: SnapshotInterpolator<T>,
  rewindTime: number,
  options: LagCompensationOptions,
): unknown;
export function lagCompensatedPosition<T extends object>(
  history: SnapshotInterpolator<T>,
  rewindTime: number,
  options: LagCompensationOptions = {},
): unknown {
  if (!Number.isFinite(rewindTime) || rewindTime < 0) {
    throw new RangeError(`rewindTime must be a finite number >= 0, got ${String(rewindTime)}`);
  }
  const now = options.now ?? history.now();
  let value: unknown = history.sample(now - rewindTime);
  for (const key of options.fieldPath ?? []) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}
