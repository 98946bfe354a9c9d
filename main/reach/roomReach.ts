import type { IpcError } from '../../shared/ipc/errors';
import type { PlayerPath } from '../../shared/lobby/lobbyState';
import type { DatagramSource, EndpointOptions } from '../net/index';
import type { DiscoveryAdvert, LanDiscoveryOptions } from '../net/discovery';

/**
 * The seam between a room and the ways it is reached (LAN codes, the internet rendezvous, a conditioner in
 * front of either): a join is one `locate` → connect → admission, a hosted room takes what `open` returns.
 * The lobby holds room state only; a reach owns its addresses, sockets and keys.
 */

/** Where a room is: its host's address and game port (an internet room's is a label, its socket is the path). */
export interface RoomTarget {
  readonly host: string;
  readonly port: number;
}

/** The progress a join shows while a reach looks for the room: the renderer words each step. */
export type JoinStep = 'finding-host' | 'trying-direct' | 'using-relay';

/** What a player asked to join: a typed code ("Try anyway": `confirm` false), or an address with its port. */
export type JoinRequest =
  { readonly code: string; readonly confirm?: boolean } | { readonly host: string; readonly port: number };

/** The room's socket factory, as `Client` and `Server` take it. */
export type OpenSocket = NonNullable<EndpointOptions['openSocket']>;

/** Where a reach found the room, and what it holds for the stay. */
export interface LocatedRoom {
  readonly target: RoomTarget;
  /** Where the Client sends when that is not the room itself (a relay in front of it); default `target`. */
  readonly connectTo?: RoomTarget;
  /** The socket that reaches the room (the internet's secured ICE path); absent: a plain UDP socket. */
  readonly openSocket?: OpenSocket;
  /** The room's own discovery reply, for admission to refuse at once what it already rules out. */
  readonly advert?: DiscoveryAdvert;
  /**
   * The machine answered, but not as this room: connect for at most `seconds`, then fail with `failure`
   * (a live room answers a connect within milliseconds on a LAN).
   */
  readonly connectWithin?: { readonly seconds: number; readonly failure: IpcError };
  /** Seconds a try to take a held seat back may take, when a try must first open a new path (an ICE session). */
  readonly rejoinTimeoutSec?: number;
  /** The NET-… code, when the room was found over the internet (shown on the guest's screen). */
  readonly internetCode?: string;
  /** The room's short LAN code as this guest's own network completes it (the host's screen shows the same). */
  readonly shortCode?: string | null;
  /** Lets go of what the reach holds for this stay (a relay, an ICE session); called once, when the stay ends. */
  close(): Promise<void>;
}

/** Where a reach reports a join's progress. */
export interface LocateContext {
  /**
   * Called as the reach learns more: where it looks first (before it waits on anything, so the joining view
   * shows at once), then a better target or the next step.
   */
  readonly onProgress: (progress: { readonly target?: RoomTarget; readonly step?: JoinStep }) => void;
}

/** What a hosted room asks of its reaches. */
export interface OpenRequest {
  /** The address the player picked for the code; undefined lets the reach choose. */
  readonly advertiseAddress?: string;
  /** The interface the player hosted on last time, preferred when no address was picked. */
  readonly rememberedInterface?: string | null;
  /** Players the room seats (a reach holds no more guests' paths than that, and a few joining). */
  readonly capacity?: number;
}

/** How a room's host presents itself on a reach, as the lobby view shows it (the internet code and status). */
export interface ReachPresence {
  readonly code: string;
  readonly status: 'registered' | 'reconnecting' | 'expired' | 'closed';
  readonly message: string | null;
}

/** What a reach gives a room being opened; every field is optional so reaches compose. */
export interface RoomOpening {
  /** The room Server's socket (an internet room's mux); absent: a plain UDP socket. */
  readonly openSocket?: OpenSocket;
  /** How each guest came in (direct or relayed over the internet); absent: the LAN. */
  readonly pathOf?: (source: DatagramSource) => PlayerPath;
  /** What the room's limits key on for a guest of this reach (its own sealed address); absent: its address. */
  readonly sourceOf?: (source: DatagramSource) => string | undefined;
  /** LAN discovery the room's host runs; absent: none from this reach. */
  readonly discovery?: Partial<Omit<LanDiscoveryOptions, 'name' | 'gamePort' | 'getPlayerCount'>>;
  /** The address to put in the room code, when this reach chose one. */
  readonly advertiseAddress?: string;
  /** Once the room's Server listens: makes it findable where this reach's guests look (the rendezvous). */
  listening?(): Promise<void>;
  /** The room's presence for the view, and its changes. */
  presence?(): ReachPresence | undefined;
  onPresence?(listener: () => void): () => void;
  /** The room's Server took a peer at `source` (a hello, or a seat moved there): what the reach holds for it stays. */
  admitted?(source: DatagramSource): void;
  /** A guest left the room's Server: drop what the reach holds for it (its ICE path). */
  release?(source: DatagramSource): Promise<void>;
  close(): Promise<void>;
}

/** One way rooms are reached. */
export interface RoomReach {
  /**
   * Finds the room a request names, the whole search in this one call; rejects with an IpcError in the
   * player's words (INVALID_ARGUMENT for a malformed code).
   */
  locate(request: JoinRequest, context: LocateContext): Promise<LocatedRoom>;
  /** Prepares a room to be reached this way; throws an IpcError when it cannot be (e.g. no rendezvous set). */
  open(request: OpenRequest): Promise<RoomOpening>;
}
