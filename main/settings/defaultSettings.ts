import { DEFAULT_THEME, PLAYER_COLORS, type Settings } from '../../shared/ipc/schemas/settings';
import { LOBBY_NAME_UNITS } from '../../shared/lobby/lobbyLimits';
import { clipToUnits } from '../../shared/text/normalizeText';

/** Used when the OS user name is empty or unusable. */
export const FALLBACK_PLAYER_NAME = 'Player';

/** The OS user name made into a valid player name: trimmed, control characters dropped, at most 24 UTF-16 units. */
export function defaultPlayerName(osUserName: string): string {
  const cleaned = osUserName.replace(/\p{Cc}/gu, '').trim();
  const clipped = clipToUnits(cleaned, LOBBY_NAME_UNITS).trim();
  return clipped.length > 0 ? clipped : FALLBACK_PLAYER_NAME;
}

// FNV-1a: a stable hash so the same user gets the same default colour every run, and
// different users on one LAN most likely get different ones.
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const ch of text) {
    hash ^= ch.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Notifications are on until the player turns them off (also for settings files written before the setting). */
export const DEFAULT_NOTIFICATIONS = true;

/** First-run settings for this OS user: not onboarded yet, so the app asks for name and colour first; theme as the OS. */
export function defaultSettings(osUserName: string): Settings {
  const playerName = defaultPlayerName(osUserName);
  const color = PLAYER_COLORS[fnv1a(playerName) % PLAYER_COLORS.length] ?? PLAYER_COLORS[0];
  return {
    playerName,
    playerColor: color.hex,
    onboarded: false,
    notifications: DEFAULT_NOTIFICATIONS,
    theme: DEFAULT_THEME,
  };
}
