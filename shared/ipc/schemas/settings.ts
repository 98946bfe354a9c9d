import { z } from 'zod';
import { internetSettingsSchema } from './internetSettings';
import { playerNameSchema } from '../../lobby/lobbyMessages';
import { PLAYER_COLORS, RETIRED_PLAYER_COLORS, currentPlayerColor, type PlayerColor } from '../../lobby/playerColors';

// The palette lives with the lobby (shared/lobby/playerColors.ts); re-exported for the settings' readers.
export { PLAYER_COLORS, RETIRED_PLAYER_COLORS, currentPlayerColor, type PlayerColor };

const paletteHexes = PLAYER_COLORS.map((c) => c.hex) as [PlayerColor, ...PlayerColor[]];

/** A palette colour as #rrggbb; upper-case input is accepted and normalised, a retired colour replaced. */
export const playerColorSchema = z
  .string()
  .toLowerCase()
  .transform(currentPlayerColor)
  .pipe(z.enum(paletteHexes, { error: 'Pick one of the palette colours' }));

/** How the app looks: following the OS's light or dark mode, or always one of them. */
export const themeSchema = z.enum(['system', 'light', 'dark']);

/** One of the themes. */
export type Theme = z.output<typeof themeSchema>;

/** The theme of a new install (and of settings files from before there was a choice). */
export const DEFAULT_THEME: Theme = 'system';

/** The network interface whose address a hosted room puts in its code (a name such as "eth0" or "tailscale0"). */
export const hostInterfaceSchema = z
  .string()
  .min(1, 'Interface name is empty')
  .max(64, 'Interface name is at most 64 characters')
  .refine((name) => !/\p{Cc}/u.test(name), 'Interface name has control characters')
  .nullable();

/** The user's settings, as stored and as sent to the renderer. */
export const settingsSchema = z.object({
  playerName: playerNameSchema,
  playerColor: playerColorSchema,
  /** The first-run step (name and colour) is done. */
  onboarded: z.boolean(),
  /** Desktop notifications (player joined, everyone ready, round started) while the window is in the background. */
  notifications: z.boolean(),
  theme: themeSchema,
  /** Rendezvous and TURN for internet rooms; absent = DEFAULT_INTERNET_SETTINGS (internet rooms off). */
  internet: internetSettingsSchema.optional(),
  /** The interface chosen for room codes; null or absent picks the best LAN address each time. */
  hostInterface: hostInterfaceSchema.optional(),
});

/** A partial update; unknown keys are rejected so typos fail loudly. */
export const settingsPatchSchema = z.strictObject({
  playerName: playerNameSchema.optional(),
  playerColor: playerColorSchema.optional(),
  onboarded: z.boolean().optional(),
  notifications: z.boolean().optional(),
  theme: themeSchema.optional(),
  /** Replaces the whole internet block (it is validated as one: a TURN mode with its fields). */
  internet: internetSettingsSchema.optional(),
  hostInterface: hostInterfaceSchema.optional(),
});

/** The user's settings. */
export type Settings = z.output<typeof settingsSchema>;

/** A partial settings update, as the caller writes it. */
export type SettingsPatch = z.input<typeof settingsPatchSchema>;

/**
 * What the renderer sees: the settings plus, when they could not be read or saved, a warning naming the file
 * and the reason (play goes on with the settings kept in memory).
 */
export const settingsViewSchema = settingsSchema.extend({ storageWarning: z.string().max(1000).optional() });

/** The settings as the renderer sees them. */
export type SettingsView = z.output<typeof settingsViewSchema>;
