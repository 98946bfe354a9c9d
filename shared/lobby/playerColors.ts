/**
 * The fixed player palette: readable on the dark theme and distinct from each other, and none of them red, the hue
 * the game keeps for whoever is "it" (IT_MARKER_COLOUR in lobbyPalette.ts). Here, below the IPC schemas, because
 * the lobby's palette and the settings schema both build on it.
 */
export const PLAYER_COLORS = [
  { hex: '#a3e048', label: 'Lime' },
  { hex: '#ff9f43', label: 'Amber' },
  { hex: '#ffd23f', label: 'Gold' },
  { hex: '#3ddc97', label: 'Mint' },
  { hex: '#2ec4f1', label: 'Sky' },
  { hex: '#5b8cff', label: 'Azure' },
  { hex: '#a77dff', label: 'Violet' },
  { hex: '#f4f1ea', label: 'Chalk' },
] as const;

/** One palette entry's hex value. */
export type PlayerColor = (typeof PLAYER_COLORS)[number]['hex'];

/** Colours once in the palette, read as their replacement (saved settings, older peers): Rose was next to IT red. */
export const RETIRED_PLAYER_COLORS: Readonly<Record<string, PlayerColor>> = { '#ff5c8a': '#a3e048' };

/** A lower-case colour with a retired palette colour replaced. */
export function currentPlayerColor(hex: string): string {
  return Object.hasOwn(RETIRED_PLAYER_COLORS, hex) ? RETIRED_PLAYER_COLORS[hex]! : hex;
}
