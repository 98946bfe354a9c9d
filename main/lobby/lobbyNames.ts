/** The lobby protocol's name limit, counted in UTF-16 units (its schema uses string length). */
export const LOBBY_NAME_UNITS = 24;

/**
 * The player's name as the lobby carries it: settings allow 24 characters, but an emoji is two UTF-16 units
 * and the host would refuse a longer hello, so long names are shortened at a character boundary.
 */
export function lobbyNameOf(playerName: string): string {
  let out = '';
  for (const char of playerName) {
    if (out.length + char.length > LOBBY_NAME_UNITS) break;
    out += char;
  }
  return out.trim() || 'Player';
}

/** The room name used when the host leaves it empty: "Ada's room". */
export function defaultRoomName(playerName: string): string {
  return `${playerName}'s room`;
}
