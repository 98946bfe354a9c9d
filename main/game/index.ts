/** The networked tag game, main-process side: the authoritative host and the players' links to it. */
export { GameHost, type GameHostOptions, type GameHostStats, type GamePlayer } from './host/gameHost';
export { GameClient, type GameClientOptions, type GameClientStats } from './gameClient';
export { LocalGameClient, type LocalGameHost } from './localGameClient';
export type { GameLink, GameFeed } from './gameLink';
export { FixedTickLoop } from './host/tickLoop';
