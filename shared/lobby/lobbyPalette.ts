import { currentPlayerColor, PLAYER_COLORS } from './playerColors';

/** The colour of the "it" marker in a game: its hue is kept out of every palette below. */
export const IT_MARKER_COLOUR = '#ff4d6d';

/** No player colour has a hue within this many degrees of IT_MARKER_COLOUR's (greys and near-whites aside). */
export const IT_HUE_RESERVE = 30;

/** The dedicated host's seat colour: a neutral grey no player can pick. */
export const DEDICATED_HOST_COLOUR = '#8890a0';

/** The colours a player may have: the settings palette. */
export const GUEST_PALETTE: readonly [string, ...string[]] = PLAYER_COLORS.map((c) => c.hex) as never;

/** Every colour a room may show: the players' palette plus the dedicated host's grey. */
export const LOBBY_PALETTE: readonly [string, ...string[]] = [...GUEST_PALETTE, DEDICATED_HOST_COLOUR];

const rgb = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as never;

/** Hue (0–360°) and saturation (0–1, HSL) of a #rrggbb colour. */
export function hueOf(hex: string): { hue: number; saturation: number } {
  const [r, g, b] = rgb(hex.toLowerCase()).map((v) => v / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  if (d === 0) return { hue: 0, saturation: 0 };
  const lightness = (max + min) / 2;
  const saturation = d / (1 - Math.abs(2 * lightness - 1));
  const sector = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return { hue: sector * 60, saturation };
}

/** Whether a colour would read as the "it" marker: a saturated hue within IT_HUE_RESERVE of it. */
export function looksLikeItMarker(hex: string): boolean {
  const { hue, saturation } = hueOf(hex);
  const marker = hueOf(IT_MARKER_COLOUR).hue;
  const apart = Math.min(Math.abs(hue - marker), 360 - Math.abs(hue - marker));
  return saturation > 0.25 && apart < IT_HUE_RESERVE;
}

/**
 * The colour of `palette` to show for a requested one: itself when it is in the palette, a retired palette colour's
 * replacement, else the nearest (older clients and tools send any #rrggbb), else the first. Pure.
 */
export function lobbyColourOf(requested: string, palette: readonly [string, ...string[]] = LOBBY_PALETTE): string {
  const wanted = currentPlayerColor(requested.toLowerCase());
  if (palette.includes(wanted)) return wanted;
  if (!/^#[0-9a-f]{6}$/.test(wanted)) return palette[0];
  const [r, g, b] = rgb(wanted);
  let best = palette[0];
  let bestDistance = Infinity;
  for (const hex of palette) {
    const [pr, pg, pb] = rgb(hex);
    const distance = (pr - r) ** 2 + (pg - g) ** 2 + (pb - b) ** 2;
    if (distance < bestDistance) [best, bestDistance] = [hex, distance];
  }
  return best;
}
