import { LOBBY_NAME_UNITS } from '../../shared/lobby/lobbyLimits';
import { clipToUnits, hasVisibleText, normalizeText } from '../../shared/text/normalizeText';

export { LOBBY_NAME_UNITS };

/**
 * The player's name as the lobby carries it: normalised, and shortened at a character boundary to the lobby's
 * 24 UTF-16 units (settings allow 24 characters, but an emoji is two units and the host would cut it anyway).
 */
export function lobbyNameOf(playerName: string): string {
  const name = clipToUnits(normalizeText(playerName), LOBBY_NAME_UNITS).trim();
  return hasVisibleText(name) ? name : 'Player';
}

/** The room name used when the host leaves it empty: "Ada's room". */
export function defaultRoomName(playerName: string): string {
  return `${playerName}'s room`;
}
