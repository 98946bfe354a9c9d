import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import { roomCapacityRange } from '../../shared/ipc/schemas/lobby';
import type { GameDefinition } from '../../shared/games/gameDefinition';
import { DEFAULT_GAME_ID, GAMES } from '../../shared/games/registry';
import { BindError } from '../net/index';
import type { RoomOpening } from '../reach/roomReach';
import { LobbyHost, type LobbyHostOptions } from './host/lobbyHost';
import type { Logger } from '../base/logger';
import type { NetworkOptions } from '../base/networkOptions';
import type { Settings } from '../../shared/ipc/schemas/settings';
import { defaultRoomName, lobbyNameOf } from './lobbyNames';

/** How the firewall is told to let players in, per `process.platform`, in one or two sentences. */
export function firewallTip(platform: string, port: number): string {
  switch (platform) {
    case 'win32':
      return (
        'In Windows Security › Firewall & network protection › Allow an app through firewall, tick Private for ' +
        'LAN Party, and make sure your network is set to Private.'
      );
    case 'darwin':
      return 'If the macOS firewall is on, allow incoming connections for LAN Party in System Settings › Network › Firewall.';
    case 'linux':
      return `If a firewall is on, open the port: sudo ufw allow ${port}/udp (or with firewalld: sudo firewall-cmd --add-port=${port}/udp).`;
    default:
      return `Allow UDP port ${port} through your firewall.`;
  }
}

/** What went wrong opening a room, for {@link describeHostFailure}. */
export interface HostFailureContext {
  /** The port we tried to bind. */
  readonly port: number;
  readonly platform: string;
}

/**
 * Turns a failure to open a room into an IpcError a player can act on: what happened and what to do
 * (another port, or the firewall). Pure.
 */
export function describeHostFailure(error: unknown, { port, platform }: HostFailureContext): IpcError {
  const code = error instanceof BindError ? error.code : (error as NodeJS.ErrnoException | undefined)?.code;
  const another = port >= 65535 ? port - 1 : port + 1;
  switch (code) {
    case 'EADDRINUSE':
      return new IpcError(
        IpcErrorCode.FAILED_PRECONDITION,
        `UDP port ${port} is already in use by another program or another LAN Party room. ` +
          `Choose another port (for example ${another}), or leave the port empty to use a free one.`,
      );
    case 'EACCES':
      return new IpcError(
        IpcErrorCode.PERMISSION_DENIED,
        port < 1024
          ? `LAN Party is not allowed to open UDP port ${port}: ports below 1024 need administrator rights. ` +
              'Choose a port above 1024, such as 9000.'
          : `LAN Party is not allowed to open UDP port ${port}. Choose another port, or let LAN Party through ` +
              `the firewall. ${firewallTip(platform, port)}`,
      );
    case 'EADDRNOTAVAIL':
      return new IpcError(
        IpcErrorCode.FAILED_PRECONDITION,
        'The network address LAN Party is set to listen on does not belong to this computer. ' +
          'Reconnect to the network and try again.',
      );
    default:
      return new IpcError(
        IpcErrorCode.UNAVAILABLE,
        `Could not open a room on UDP port ${port}${code ? ` (${code})` : ''}. Try another port, or run the ` +
          'Network check from the home screen.',
      );
  }
}

/** What the player asked for (already validated) plus who they are. */
export interface OpenRoomRequest {
  readonly roomName: string;
  /** The game the room plays (a registry id, already checked). */
  readonly gameId: string;
  readonly playerName: string;
  readonly colour: string;
  readonly capacity: number;
  readonly password: string | undefined;
  /** A port the player chose; undefined tries the default game port, then any free one. */
  readonly port: number | undefined;
  /** Seconds a guest that lost its link keeps its seat; undefined: the room's default. */
  readonly seatGraceSec?: number;
  /** This app's version, for a guest refused for another version. */
  readonly appVersion?: string;
  /** What the room's reaches give it: its socket, how guests came in, its discovery, the code's address. */
  readonly opening: RoomOpening;
}

/** An open room and how it is advertised. */
export interface OpenedRoom {
  readonly host: LobbyHost;
  /** Our discovery instance id (to spot our own room in the LAN list); null without discovery. */
  readonly instanceId: string | null;
  /** False when the discovery port could not be used, so LAN lists will not show the room. */
  readonly discoverable: boolean;
}

/** How a room is opened; `start` is LobbyHost.start unless a test swaps it. */
export interface OpenRoomDeps {
  readonly network: NetworkOptions;
  readonly platform: string;
  readonly logger: Logger;
  readonly start?: (options: LobbyHostOptions) => Promise<LobbyHost>;
}

function isPortInUse(error: unknown): boolean {
  return error instanceof BindError && error.code === 'EADDRINUSE';
}

/**
 * Opens a room: binds the player's port, or the default game port falling back to a free one when it is
 * busy; if only LAN discovery fails (its port taken), opens the room without it. Rejects with an IpcError
 * whose message says what to do.
 */
export async function openRoom(request: OpenRoomRequest, deps: OpenRoomDeps): Promise<OpenedRoom> {
  const { network } = deps;
  const start = deps.start ?? ((options: LobbyHostOptions) => LobbyHost.start(options));
  const ports =
    request.port !== undefined ? [request.port] : network.defaultGamePort !== 0 ? [network.defaultGamePort, 0] : [0];
  const { opening } = request;
  const instanceId = opening.discovery?.instanceId ?? null;
  const base = (port: number): LobbyHostOptions => ({
    roomName: request.roomName,
    gameId: request.gameId,
    playerName: request.playerName,
    colour: request.colour,
    capacity: request.capacity,
    port,
    bindAddress: network.bindAddress,
    ...(request.password !== undefined ? { password: request.password } : {}),
    ...(request.appVersion !== undefined ? { appVersion: request.appVersion } : {}),
    ...(request.seatGraceSec !== undefined ? { seatGraceSec: request.seatGraceSec } : {}),
    ...(opening.openSocket ? { transport: { openSocket: opening.openSocket } } : {}),
    ...(opening.pathOf ? { pathOf: opening.pathOf } : {}),
    ...(opening.sourceOf ? { sourceOf: opening.sourceOf } : {}),
    ...((opening.advertiseAddress ?? network.advertiseAddress) !== undefined
      ? { advertiseAddress: opening.advertiseAddress ?? network.advertiseAddress }
      : {}),
    ...(network.networkInterfaces ? { networkInterfaces: network.networkInterfaces } : {}),
    logger: deps.logger,
  });
  const discovery = opening.discovery ?? false;

  for (const [index, port] of ports.entries()) {
    try {
      return { host: await start({ ...base(port), discovery }), instanceId, discoverable: discovery !== false };
    } catch (error) {
      if (isPortInUse(error) && index < ports.length - 1) continue;
      if (error instanceof BindError) throw describeHostFailure(error, { port, platform: deps.platform });
      // The game port bound but discovery did not: a room players join by code beats no room at all.
      deps.logger.warn(`LAN discovery unavailable on UDP ${network.discoveryPort}; hosting without it`, error);
      try {
        return { host: await start({ ...base(port), discovery: false }), instanceId: null, discoverable: false };
      } catch (retryError) {
        throw describeHostFailure(retryError, { port, platform: deps.platform });
      }
    }
  }
  throw describeHostFailure(new Error('no port to try'), { port: ports[0] ?? 0, platform: deps.platform });
}

/** The game a new room plays and its capacity, checked: an unknown game or a size it cannot take is refused. */
export function roomGame(input: { gameId?: string; capacity?: number }): { game: GameDefinition; capacity: number } {
  const id = input.gameId ?? DEFAULT_GAME_ID;
  const game = GAMES.find(id);
  if (game === undefined) {
    throw new IpcError(IpcErrorCode.INVALID_ARGUMENT, `There is no game “${id.slice(0, 64)}” in this LAN Party.`);
  }
  const range = roomCapacityRange(game);
  const capacity = input.capacity ?? range.default;
  if (capacity < range.min || capacity > range.max) {
    throw new IpcError(
      IpcErrorCode.INVALID_ARGUMENT,
      `A room of ${game.name} takes ${range.min}–${range.max} players, not ${capacity}.`,
    );
  }
  return { game, capacity };
}

/**
 * One opening from several reaches' (a LAN room that is also on the internet): the first socket, path judge,
 * discovery and code address given, every reach told when the room listens, released and closed.
 */
export function combineOpenings(openings: readonly RoomOpening[]): RoomOpening {
  const first = <K extends keyof RoomOpening>(key: K): RoomOpening[K] | undefined =>
    openings.find((opening) => opening[key] !== undefined)?.[key];
  const openSocket = first('openSocket');
  const pathOf = first('pathOf');
  const sourceOf = first('sourceOf');
  const discovery = first('discovery');
  const advertiseAddress = first('advertiseAddress');
  const presenting = openings.find((opening) => opening.presence !== undefined);
  return {
    ...(openSocket ? { openSocket } : {}),
    ...(pathOf ? { pathOf } : {}),
    ...(sourceOf ? { sourceOf } : {}),
    ...(discovery ? { discovery } : {}),
    ...(advertiseAddress !== undefined ? { advertiseAddress } : {}),
    listening: async () => {
      for (const opening of openings) await opening.listening?.();
    },
    ...(presenting ? { presence: () => presenting.presence!(), onPresence: (l) => presenting.onPresence!(l) } : {}),
    admitted: (source) => openings.forEach((opening) => opening.admitted?.(source)),
    release: async (source) => {
      await Promise.all(openings.map((opening) => opening.release?.(source)));
    },
    close: async () => {
      await Promise.all(openings.map((opening) => opening.close()));
    },
  };
}

/** What the player asked for in "Open room", the game and capacity already checked. */
export interface HostInput {
  readonly roomName?: string;
  readonly gameId: string;
  readonly capacity: number;
  readonly password?: string;
  readonly port?: number;
  readonly seatGraceSec?: number;
}

/**
 * Opens the room the player asked for (named after them by default) through its reaches' opening, then tells
 * the reaches it listens (an internet room registers with the rendezvous). On failure the room and the opening
 * are closed again and the error passes on.
 */
export async function openReachedRoom(
  input: HostInput,
  settings: Pick<Settings, 'playerName' | 'playerColor'>,
  opening: RoomOpening,
  deps: OpenRoomDeps & { readonly appVersion?: string },
): Promise<OpenedRoom> {
  try {
    const playerName = lobbyNameOf(settings.playerName);
    const opened = await openRoom(
      {
        roomName: input.roomName ?? defaultRoomName(playerName),
        gameId: input.gameId,
        playerName,
        colour: settings.playerColor,
        capacity: input.capacity,
        password: input.password,
        port: input.port,
        ...(input.seatGraceSec !== undefined ? { seatGraceSec: input.seatGraceSec } : {}),
        opening,
        ...(deps.appVersion !== undefined ? { appVersion: deps.appVersion } : {}),
      },
      deps,
    );
    try {
      await opening.listening?.();
    } catch (error) {
      await opened.host.close();
      throw error;
    }
    return opened;
  } catch (error) {
    await opening.close();
    throw error;
  }
}
