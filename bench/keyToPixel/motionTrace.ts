/** One drawn frame of one player on one page: when it was drawn (ms, the bench's common clock) and where. */
export interface DrawnSample {
  readonly t: number;
  readonly x: number;
  readonly y: number;
  /** Whether the view said this frame was extrapolated (undefined: the view does not say). */
  readonly extrapolated?: boolean;
}

const distance = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * When the drawn player first moved at least `threshold` (arena units) from where it was drawn at `since`: the last
 * frame at or before `since` is the start (the first frame when none is), and the answer is the time of the first
 * later frame that far from it; undefined when none is.
 */
export function firstMove(samples: readonly DrawnSample[], since: number, threshold: number): number | undefined {
  let start: DrawnSample | undefined;
  for (const s of samples) {
    if (s.t <= since) {
      start = s;
      continue;
    }
    start ??= s;
    if (distance(s, start) >= threshold) return s.t;
  }
  return undefined;
}

/**
 * Frames drawn further from the one before than a player can run in the time between (`maxSpeed` units per ms,
 * with `slack` times that allowed, plus `tolerance` units for rounding): a snap or a correction, not movement.
 */
export function snappedFrames(samples: readonly DrawnSample[], maxSpeed: number, slack = 1.5, tolerance = 1): number {
  let snapped = 0;
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    if (distance(a, b) > maxSpeed * slack * (b.t - a.t) + tolerance) snapped += 1;
  }
  return snapped;
}

/** Where `samples` (sorted by time) drew the player at `t`, linearly between frames; undefined outside them. */
export function positionAt(samples: readonly DrawnSample[], t: number): { x: number; y: number } | undefined {
  if (samples.length === 0 || t < samples[0]!.t || t > samples[samples.length - 1]!.t) return undefined;
  let lo = 0;
  let hi = samples.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (samples[mid]!.t <= t) lo = mid;
    else hi = mid;
  }
  const a = samples[lo]!;
  const b = samples[hi]!;
  const k = b.t === a.t ? 0 : (t - a.t) / (b.t - a.t);
  return { x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k };
}

/**
 * How far the other page drew the player from the path its own page drew, `lag` ms later: for each frame of
 * `remote` at or after `from`, the distance to `own`'s position at that time minus `lag` (frames with no own
 * position then are left out). The remote view's error beyond a steady delay: snaps, extrapolation overshoot.
 */
export function pathErrors(
  remote: readonly DrawnSample[],
  own: readonly DrawnSample[],
  lag: number,
  from: number,
): number[] {
  const out: number[] = [];
  for (const s of remote) {
    if (s.t < from) continue;
    const at = positionAt(own, s.t - lag);
    if (at !== undefined) out.push(distance(s, at));
  }
  return out;
}
