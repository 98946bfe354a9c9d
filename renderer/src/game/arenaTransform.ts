/** How arena units map to canvas pixels: uniform scale, centred (letterboxed) in the canvas. */
export interface ArenaTransform {
  /** Canvas pixels per arena unit. */
  readonly scale: number;
  readonly offsetX: number;
  readonly offsetY: number;
}

/**
 * Fits a `width`×`height` arena into a `canvasWidth`×`canvasHeight` canvas (device pixels) with `margin` pixels
 * kept free on every side, keeping the aspect ratio. A canvas too small for the margin gets scale 0, not a
 * negative one.
 */
export function fitArena(
  width: number,
  height: number,
  canvasWidth: number,
  canvasHeight: number,
  margin = 0,
): ArenaTransform {
  if (!(width > 0 && height > 0)) throw new RangeError(`arena size must be positive, got ${width}×${height}`);
  const freeW = Math.max(0, canvasWidth - 2 * margin);
  const freeH = Math.max(0, canvasHeight - 2 * margin);
  const scale = Math.min(freeW / width, freeH / height);
  return { scale, offsetX: (canvasWidth - width * scale) / 2, offsetY: (canvasHeight - height * scale) / 2 };
}

/** A world x coordinate on the canvas. */
export function toCanvasX(t: ArenaTransform, x: number): number {
  return t.offsetX + x * t.scale;
}

/** A world y coordinate on the canvas. */
export function toCanvasY(t: ArenaTransform, y: number): number {
  return t.offsetY + y * t.scale;
}

/** A canvas point back in arena units (for pointer input and tests). */
export function toWorld(t: ArenaTransform, canvasX: number, canvasY: number): { x: number; y: number } {
  if (t.scale === 0) return { x: 0, y: 0 };
  return { x: (canvasX - t.offsetX) / t.scale, y: (canvasY - t.offsetY) / t.scale };
}

/**
 * The backing-store size of a canvas shown at `cssWidth`×`cssHeight` on a `devicePixelRatio` screen: whole device
 * pixels, at least 1, and capped at `maxPixels` in total (very large HiDPI windows would cost fill rate for nothing).
 */
export function backingSize(
  cssWidth: number,
  cssHeight: number,
  devicePixelRatio: number,
  maxPixels = 3840 * 2160,
): { width: number; height: number; ratio: number } {
  let ratio = Number.isFinite(devicePixelRatio) && devicePixelRatio > 0 ? devicePixelRatio : 1;
  const area = cssWidth * cssHeight * ratio * ratio;
  if (area > maxPixels) ratio *= Math.sqrt(maxPixels / area);
  return {
    width: Math.max(1, Math.round(cssWidth * ratio)),
    height: Math.max(1, Math.round(cssHeight * ratio)),
    ratio,
  };
}
