/** Blending two snapshots of nested JSON-like state: numbers linearly, angles the short way round, the rest held. */

/** Decides from a field's key path (array indices as decimal strings) whether it holds an angle in radians. */
export type AnglePredicate = (path: readonly string[]) => boolean;

/**
 * Which fields are angles: dotted paths (`'heading'`, `'turret.angle'`, `'players.*.heading'`, where `*` matches any
 * one key), or a predicate over the key path.
 */
export type AngleFields = readonly string[] | AnglePredicate;

const TWO_PI = 2 * Math.PI;

/** Matches no field. */
export const NO_ANGLES: AnglePredicate = () => false;

/** Turns an {@link AngleFields} spec into a predicate. */
export function compileAngleMatcher(spec: AngleFields | undefined): AnglePredicate {
  if (spec === undefined) return NO_ANGLES;
  if (typeof spec === 'function') return spec;
  const patterns = spec.map((p) => {
    if (typeof p !== 'string' || p.length === 0) throw new TypeError(`angle field paths must be non-empty strings`);
    return p.split('.');
  });
  return (path) =>
    patterns.some((pattern) => pattern.length === path.length && pattern.every((k, i) => k === '*' || k === path[i]));
}

/** Wraps an angle into [-π, π). */
export function wrapAngle(angle: number): number {
  return angle - TWO_PI * Math.floor((angle + Math.PI) / TWO_PI);
}

/** Blends two angles along the shorter arc; the result is wrapped into [-π, π). */
export function lerpAngle(a: number, b: number, t: number): number {
  return wrapAngle(a + wrapAngle(b - a) * t);
}

/** Exact at both ends (t = 0 gives a, t = 1 gives b), unlike a + (b - a) * t. */
function lerp(a: number, b: number, t: number): number {
  return a * (1 - t) + b * t;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep copy of JSON-like state, so callers may mutate what they are given without touching stored history. */
export function cloneState<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => cloneState(v)) as T;
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = cloneState(value[key]);
    return out as T;
  }
  return value;
}

function blend(a: unknown, b: unknown, t: number, path: string[], isAngle: AnglePredicate): unknown {
  if (typeof a === 'number' && typeof b === 'number') {
    return isAngle(path) ? lerpAngle(a, b, t) : lerp(a, b, t);
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.map((v: unknown, i) => blend(v, b[i], t, [...path, String(i)], isAngle));
  }
  if (isRecord(a) && isRecord(b)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(a)) {
      out[key] = key in b ? blend(a[key], b[key], t, [...path, key], isAngle) : cloneState(a[key]);
    }
    return out;
  }
  // Strings, booleans, null, or mismatched shapes: hold the earlier snapshot's value until the later one's time,
  // so a discrete change (e.g. who is "it") shows exactly when the snapshot reporting it is reached.
  return cloneState(a);
}

/**
 * State between `a` (t = 0) and `b` (t = 1). Numbers present in both blend linearly (angles per `isAngle` along the
 * short arc); anything else, and keys missing from `b`, take `a`'s value; keys only in `b` are left out.
 */
export function interpolateState<T>(a: T, b: T, t: number, isAngle: AnglePredicate = NO_ANGLES): T {
  return blend(a, b, t, [], isAngle) as T;
}
