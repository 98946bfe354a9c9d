/**
 * The key-to-pixel bench's read-only window on the render loop (bench/keyToPixel): when a page defines
 * `window.__lanPartyFrameProbe`, it is handed each drawn frame and its time, and must not change either. The app
 * never defines it, so a frame costs one property lookup.
 */
export function probeFrame(now: number, frame: unknown): void {
  const probe = (globalThis as { __lanPartyFrameProbe?: (now: number, frame: unknown) => void }).__lanPartyFrameProbe;
  if (typeof probe === 'function') probe(now, frame);
}
