import type { EndpointOptions, Peer } from '../../net/index';
import type { LanDiscoveryOptions, NetworkInterfacesLike } from '../../net/discovery';
import type { Logger } from '../../base/logger';
import type { Scheduler } from '../../base/scheduler';
import type { PlayerPath } from '../../../shared/lobby/lobbyState';
import type { LobbyHostLimits } from './lobbyHostLimits';
import type { RandomBytes } from '../../net/pake/index';

/** Options of {@link LobbyHost.start}. */
export interface LobbyHostOptions {
  roomName: string;
  playerName: string;
  colour: string;
  /** The game the room plays (a registry id). Default DEFAULT_GAME_ID ('tag'). */
  gameId?: string;
  /** Players including the host, within the game's limits (tag: 2–16). Default 8, clamped to them. */
  capacity?: number;
  /** A dedicated host (its own seat is nobody): the LAN advert counts the guests only, as its banner does. */
  dedicated?: boolean;
  password?: string;
  /** Game port; default 0 (a free one). */
  port?: number;
  /** Bind address; default 0.0.0.0 so LAN players can reach it. */
  bindAddress?: string;
  /** LAN discovery; `false` turns it off. Tests pass an ephemeral port and loopback targets. */
  discovery?: false | Partial<Omit<LanDiscoveryOptions, 'name' | 'gamePort' | 'getPlayerCount'>>;
  /** Address written into the room code; default this machine's first LAN address. */
  advertiseAddress?: string;
  networkInterfaces?: () => NetworkInterfacesLike;
  /** This app's version, told to a guest refused for another version so it can say which side must update. */
  appVersion?: string;
  /** Seconds a connected peer has to get in (hello, and the password proof in a password room). Default 3. */
  helloTimeout?: number;
  /** Seconds between ping broadcasts. Default 2. */
  pingInterval?: number;
  /** Admission budgets and rate limits; unset fields keep DEFAULT_LOBBY_HOST_LIMITS. */
  limits?: Partial<LobbyHostLimits>;
  /** Where the room notes what a player cannot see (a guest's connection moving to a new address). Default silent. */
  logger?: Logger;
  /** Time and timers for deadlines and limits; default the real ones. */
  clock?: Scheduler;
  /** How each guest reaches this host (shown beside its ping); default every guest is on the LAN. */
  pathOf?: (peer: Peer) => PlayerPath;
  /**
   * What the door's limits key on for a guest: default its address; an internet reach names the guest's own (sealed)
   * address, so guests relayed through one TURN server never share a password backoff.
   */
  sourceOf?: (peer: Peer) => string | undefined;
  /** Seconds a guest whose link went silent keeps its seat, to come back by itself; 0: none. Default 30. */
  seatGraceSec?: number;
  /** Milliseconds of the wall clock, for the "reconnecting…" countdown players see. Default the system's wall clock. */
  wallClock?: () => number;
  transport?: Omit<EndpointOptions, 'drive'>;
  /** The password exchange's ephemeral scalars and session ids; default the OS's CSPRNG (tests record them). */
  random?: RandomBytes;
}
