import { DEFAULT_GAME_ID } from '../games/registry';

/**
 * Version of the lobby's own messages; a host refuses guests of another version with a version mismatch.
 * 2: a password room answers the hello with a challenge (the password never crosses the wire); bounded state.
 * 3: the password check is a CPace exchange bound to the connection, confirmed both ways (v2's HMAC proof is gone).
 * 4: CPace also binds the protocol and each side's knowledge of the native offer; a rejoin proves the seat's resume
 *    key on its new connection instead of presenting the token (main/lobby/resumeProof.ts). A v3 guest would fail
 *    both silently ("wrong password", "not recognised"): it is told to update instead.
 * 5: a guest's path may be 'router' (a direct room's invite); a v4 guest would refuse the lobby state naming it and
 *    sit in a broken room: it is told to update at the hello instead.
 * 6: a guest's path may be 'dht' (a DHT room's invite, the NATs punched through); the same reason as 5.
 */
export const LOBBY_PROTOCOL_VERSION = 6;

/** The host's own player id (transport peer ids start at 1). */
export const HOST_PLAYER_ID = 0;

/** Chat lines kept in the lobby state; older ones fall off. */
export const MAX_CHAT_LINES = 100;

/**
 * How a guest reaches the host: on the LAN, directly over the internet (ICE), through the TURN relay, straight
 * to the port the host's router maps (a direct room's invite), or straight through both NATs after meeting on the
 * public DHT (a DHT room's invite).
 */
export const PlayerPath = { LAN: 'lan', DIRECT: 'direct', RELAYED: 'relayed', ROUTER: 'router', DHT: 'dht' } as const;
/** One of {@link PlayerPath}'s values. */
export type PlayerPath = (typeof PlayerPath)[keyof typeof PlayerPath];

/** One person in the room. */
export interface LobbyPlayer {
  id: number;
  name: string;
  colour: string;
  ready: boolean;
  host: boolean;
  /** Round trip to the host in ms; null until measured (and for the host itself). */
  pingMs: number | null;
  /** The guest's path to the host; absent for the host itself and from hosts older than internet rooms (LAN). */
  path?: PlayerPath;
  /**
   * The guest's link went silent and its seat waits for it ("reconnecting…") until this time, in milliseconds of
   * the host's wall clock (exact on the host's screen, about right on a guest's); absent while it is connected.
   */
  awayUntil?: number;
  /**
   * The host has not heard the guest's link for a moment (an ICE restart, a blip): shown "reconnecting…" with no
   * countdown until it is heard again. Absent while heard; hosts before it never send it, guests before it drop it.
   */
  linkQuiet?: boolean;
  /**
   * The guest's LAN Party offered the native path (message authentication) and this host speaks it, yet the
   * connection is gale.net v1: the offer was lost or stripped on the way. Shown as a warning on the player.
   */
  fellBackToV1?: boolean;
}

/** One chat message, numbered by the host. */
export interface ChatLine {
  id: number;
  from: number;
  name: string;
  text: string;
}

/** 'lobby' while people gather; 'playing' once the host starts. */
export type LobbyPhase = 'lobby' | 'playing';

/** Everything host and guests agree on about the room. */
export interface LobbyState {
  roomName: string;
  /** The game the room plays: a GameDefinition id of shared/games/registry.ts ('tag'). */
  gameId: string;
  capacity: number;
  passwordProtected: boolean;
  phase: LobbyPhase;
  players: LobbyPlayer[];
  chat: ChatLine[];
  /** Events applied so far; guests check it to detect a missed event. */
  revision: number;
}

/** A change to the lobby, made by the host and replayed by every guest. */
export type LobbyEvent =
  /** A player came in, or (same id) changed how it is connected: away, back; it keeps its place in the list. */
  | { kind: 'joined'; player: LobbyPlayer }
  | { kind: 'left'; playerId: number; reason: 'left' | 'kicked' | 'timed-out' }
  | { kind: 'ready'; playerId: number; ready: boolean }
  | { kind: 'chat'; line: ChatLine }
  | { kind: 'pings'; pings: Array<[number, number | null]> }
  | { kind: 'phase'; phase: LobbyPhase };

/** A fresh room with only its host in it; it plays `gameId`, by default DEFAULT_GAME_ID. */
export function createLobbyState(
  room: { roomName: string; capacity: number; passwordProtected: boolean; gameId?: string },
  host: { name: string; colour: string },
): LobbyState {
  return {
    ...room,
    gameId: room.gameId ?? DEFAULT_GAME_ID,
    phase: 'lobby',
    players: [{ id: HOST_PLAYER_ID, name: host.name, colour: host.colour, ready: false, host: true, pingMs: null }],
    chat: [],
    revision: 0,
  };
}
