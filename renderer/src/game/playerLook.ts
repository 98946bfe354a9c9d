/** A player's name and colour, from the roster (or a stand-in before it arrives). */
export interface PlayerLook {
  readonly name: string;
  readonly colour: string;
}

/** The stand-in look of a player the roster has not named (yet). */
export function fallbackLook(id: string): PlayerLook {
  return { name: `Player ${id}`, colour: '#9aa1c7' };
}
