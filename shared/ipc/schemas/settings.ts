import { z } from 'zod';

/** Longest player name, in user-perceived characters (code points). */
export const PLAYER_NAME_MAX = 24;

/** The fixed player palette: readable on the dark theme and distinct from each other. */
export const PLAYER_COLORS = [
  { hex: '#ff5c8a', label: 'Rose' },
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

const paletteHexes = PLAYER_COLORS.map((c) => c.hex) as [PlayerColor, ...PlayerColor[]];

// Control characters would corrupt lobby lists and logs; they never belong in a display name.
const CONTROL_CHARS = /\p{Cc}/u;

/** A player name: trimmed, 1–24 code points, no control characters. */
export const playerNameSchema = z
  .string()
  .trim()
  .refine((s) => s.length > 0, 'Name cannot be empty')
  .refine((s) => [...s].length <= PLAYER_NAME_MAX, `Name must be at most ${PLAYER_NAME_MAX} characters`)
  .refine((s) => !CONTROL_CHARS.test(s), 'Name cannot contain control characters');

/** A palette colour as #rrggbb; upper-case input is accepted and normalised. */
export const playerColorSchema = z
  .string()
  .toLowerCase()
  .pipe(z.enum(paletteHexes, { error: 'Pick one of the palette colours' }));

/** How the app looks: following the OS's light or dark mode, or always one of them. */
export const themeSchema = z.enum(['system', 'light', 'dark']);

/** One of the themes. */
export type Theme = z.output<typeof themeSchema>;

/** The theme of a new install (and of settings files from before there was a choice). */
export const DEFAULT_THEME: Theme = 'system';

/** The user's settings, as stored and as sent to the renderer. */
export const settingsSchema = z.object({
  playerName: playerNameSchema,
  playerColor: playerColorSchema,
  /** The first-run step (name and colour) is done. */
  onboarded: z.boolean(),
  theme: themeSchema,
});

/** A partial update; unknown keys are rejected so typos fail loudly. */
export const settingsPatchSchema = z.strictObject({
  playerName: playerNameSchema.optional(),
  playerColor: playerColorSchema.optional(),
  onboarded: z.boolean().optional(),
  theme: themeSchema.optional(),
});

/** The user's settings. */
export type Settings = z.output<typeof settingsSchema>;

/** A partial settings update, as the caller writes it. */
export type SettingsPatch = z.input<typeof settingsPatchSchema>;
