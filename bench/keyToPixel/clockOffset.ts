/** One reading of a page's clock from the bench: the bench's clock before and after, the page's in between (ms). */
export interface ClockReading {
  readonly before: number;
  readonly page: number;
  readonly after: number;
}

/** A page clock's offset from the bench's (page − bench, ms), and how far off it may be. */
export interface ClockOffset {
  readonly offset: number;
  readonly uncertainty: number;
}

function checked(readings: readonly ClockReading[]): readonly ClockReading[] {
  if (readings.length === 0) throw new RangeError('no clock readings');
  for (const r of readings) {
    if (!(r.after >= r.before)) throw new RangeError(`a clock reading went backwards: ${r.before} → ${r.after}`);
  }
  return readings;
}

/**
 * The offset two clocks' time origins give (page − bench: both count from their own origin on the same wall clock),
 * checked against round trips: `uncertainty` is how far outside the best-fitting reading's round trip the page's
 * reading falls with it (0 when inside every bound it has to be in), so a wrong origin shows.
 */
export function originOffset(pageOrigin: number, benchOrigin: number, readings: readonly ClockReading[]): ClockOffset {
  const offset = benchOrigin - pageOrigin;
  let outside = Infinity;
  for (const r of checked(readings)) {
    const at = r.page - offset;
    outside = Math.min(outside, Math.max(0, r.before - at, at - r.after));
  }
  return { offset, uncertainty: outside };
}
