import { PLAYER_COLORS } from '../ipc/schemas/settings';

/** The dedicated host's seat colour: a neutral grey no player can pick. */
export const DEDICATED_HOST_COLOUR = '#8890a0';

/** The colours a player may have: the settings palette. */
export const GUEST_PALETTE: readonly [string, ...string[]] = PLAYER_COLORS.map((c) => c.hex) as never;

/** Every colour a room may show: the players' palette plus the dedicated host's grey. */
export const LOBBY_PALETTE: readonly [string, ...string[]] = [...GUEST_PALETTE, DEDICATED_HOST_COLOUR];

const rgb = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as never;

/**
 * The colour of `palette` to show for a requested one: itself when it is in the palette, else the nearest
 * (older clients and tools send any #rrggbb), else the first. Pure.
 */
export function lobbyColourOf(requested: string, palette: readonly [string, ...string[]] = LOBBY_PALETTE): string {
  const wanted = requested.toLowerCase();
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
