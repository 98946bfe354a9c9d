/** A rectangle in screen coordinates (Electron's Rectangle). */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A window size. */
export interface Size {
  readonly width: number;
  readonly height: number;
}

/**
 * The smallest window the layout is designed for: the room's two columns (players and chat) and the home screen's
 * profile column stay side by side above 860 px of content (renderer CSS breakpoints), plus the page padding; in a
 * round the arena still gets about 760×430 of its 16:9 there (tests/e2e/arena.e2e.test.ts checks the layout at it).
 */
export const MIN_WINDOW_SIZE: Size = { width: 960, height: 600 };

/** The first-launch size. */
export const DEFAULT_WINDOW_SIZE: Size = { width: 1100, height: 720 };

function overlap(a: Rect, b: Rect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}

/**
 * Where to open the window: the saved bounds, moved and shrunk to fit inside the work area of the display they
 * overlap most (a window never opens partly off screen or under a taskbar); on the primary display, centred, when
 * they overlap none (that monitor is gone). Never smaller than `min`, unless the display itself is smaller.
 * `workAreas[0]` is the primary display's. No saved bounds: the default size, centred on the primary display.
 */
export function fitWindowBounds(
  saved: Rect | null,
  workAreas: readonly Rect[],
  defaults: Size = DEFAULT_WINDOW_SIZE,
  min: Size = MIN_WINDOW_SIZE,
): Rect {
  const primary = workAreas[0] ?? { x: 0, y: 0, width: defaults.width, height: defaults.height };
  let area = primary;
  let best = 0;
  for (const candidate of saved ? workAreas : []) {
    const shared = overlap(saved as Rect, candidate);
    if (shared > best) [area, best] = [candidate, shared];
  }
  const wanted = saved ?? defaults;
  const width = Math.round(Math.min(Math.max(wanted.width, min.width), area.width));
  const height = Math.round(Math.min(Math.max(wanted.height, min.height), area.height));
  if (!saved || best === 0) {
    return {
      x: Math.round(area.x + (area.width - width) / 2),
      y: Math.round(area.y + (area.height - height) / 2),
      width,
      height,
    };
  }
  return {
    x: Math.round(clamp(saved.x, area.x, area.x + area.width - width)),
    y: Math.round(clamp(saved.y, area.y, area.y + area.height - height)),
    width,
    height,
  };
}
