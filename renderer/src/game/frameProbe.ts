/**
 * The key-to-pixel bench's read-only window on the render loop (bench/keyToPixel): when a page defines
 * `window.__lanPartyFrameProbe`, it is handed each drawn frame, its time and the interpolation delay it was drawn
 * with, and must not change any. The app never defines it, so a frame costs one property lookup.
 */
export function probeFrame(now: number, frame: unknown, interpolationDelay: number | undefined): void {
  const probe = (globalThis as { __lanPartyFrameProbe?: (now: number, frame: unknown, delay?: number) => void })
    .__lanPartyFrameProbe;
  if (typeof probe === 'function') probe(now, frame, interpolationDelay);
}
