import { createGameRegistry } from './gameRegistry';
import { lightCyclesGame } from './light-cycles/lightCyclesGame';
import { tagGame } from './tag/tagGame';

/** The game a room plays when nobody chose one, and what a peer that names no game (an older build) means. */
export const DEFAULT_GAME_ID = 'tag';

/** Every game this build can host and join, by id. A new game adds its definition here (and its renderer module). */
export const GAMES = createGameRegistry([tagGame, lightCyclesGame]);
