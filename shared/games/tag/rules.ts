import { MAX_GAME_PLAYERS, MAX_PLAYER_ID_LENGTH } from '../../game/gameProtocol';
import type { Arena } from './types';

/** Fixed rules of the tag game, shared by host and clients so prediction matches the host exactly. */
export const RULES = {
  /** Player circle radius. */
  playerRadius: 20,
  /** Top speed in units per second. */
  maxSpeed: 320,
  /** "it" runs this much faster, so it can catch someone eventually. */
  itSpeedMultiplier: 1.1,
  /** Per second, how quickly velocity approaches the input's target velocity (exponential response). */
  responsiveness: 12,
  /** Longest dt simulated in one applyMove/step; longer hitches are shortened to this. */
  maxDt: 0.25,
  /** Extra reach beyond touching: a tag lands when centres are within 2·radius + tagReachMargin. */
  tagReachMargin: 16,
  /** After becoming "it", seconds before you may tag (a head start for whoever stands next to you). */
  tagCooldown: 1.5,
  /** Seconds the player who just passed "it" on cannot be tagged (no tag-backs): longer than tagCooldown, so it shows. */
  tagBackImmunity: 3,
  /** Seconds of the 3-2-1 before a round: everyone sees who is "it", nobody moves, tags or scores. */
  roundCountdown: 3,
  /** After a tag attempt that hits nobody, seconds before trying again (no button mashing). */
  missCooldown: 0.35,
  /** Default round length in seconds. */
  roundDuration: 90,
  minPlayers: 2,
  maxPlayers: MAX_GAME_PLAYERS,
  maxIdLength: MAX_PLAYER_ID_LENGTH,
  maxNameLength: 16,
} as const;

/** Centre distance at which a tag lands. */
export const TAG_REACH = 2 * RULES.playerRadius + RULES.tagReachMargin;

/** The standard 1600×900 arena: a centre pillar and four walls placed point-symmetrically. */
export const DEFAULT_ARENA: Arena = {
  width: 1600,
  height: 900,
  obstacles: [
    { x: 760, y: 350, width: 80, height: 200 },
    { x: 350, y: 200, width: 220, height: 50 },
    { x: 1030, y: 650, width: 220, height: 50 },
    { x: 300, y: 560, width: 50, height: 180 },
    { x: 1250, y: 160, width: 50, height: 180 },
  ],
};

/** Sixteen distinguishable player colours, handed out in order to players without one; none of them red (it's). */
export const PLAYER_COLOURS = [
  '#2ec4b6',
  '#3cb44b',
  '#ffe119',
  '#4363d8',
  '#f58231',
  '#911eb4',
  '#42d4f4',
  '#f032e6',
  '#bfef45',
  '#ffd8b1',
  '#469990',
  '#dcbeff',
  '#9a6324',
  '#fffac8',
  '#808000',
  '#aaffc3',
] as const;
