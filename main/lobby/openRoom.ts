import { randomInstanceId } from '../net/discovery';
import { BindError } from '../net/index';
import { LobbyHost, type LobbyHostOptions } from './host/lobbyHost';
import { describeHostFailure } from './hostFailure';
import type { Logger } from '../base/logger';
import type { NetworkOptions } from '../base/networkOptions';

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
  /** This app's version, for a guest refused for another version. */
  readonly appVersion?: string;
  /** The room's socket (an internet room wraps the UDP socket in a mux); default a plain UDP socket. */
  readonly openSocket?: NonNullable<LobbyHostOptions['transport']>['openSocket'];
  /** How each guest reaches the host (an internet room knows); default the LAN. */
  readonly pathOf?: LobbyHostOptions['pathOf'];
  /** The address to put in the code (the host's choice, checked); default the network options', then the best. */
  readonly advertiseAddress?: string;
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
  const instanceId = randomInstanceId();
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
    ...(request.openSocket ? { transport: { openSocket: request.openSocket } } : {}),
    ...(request.pathOf ? { pathOf: request.pathOf } : {}),
    ...((request.advertiseAddress ?? network.advertiseAddress) !== undefined
      ? { advertiseAddress: request.advertiseAddress ?? network.advertiseAddress }
      : {}),
    ...(network.networkInterfaces ? { networkInterfaces: network.networkInterfaces } : {}),
    logger: deps.logger,
  });
  const discovery = {
    port: network.discoveryPort,
    bindAddress: network.discoveryBindAddress,
    instanceId,
    announce: {
      intervalMs: network.announceIntervalMs,
      ...(network.broadcastTargets ? { targets: [...network.broadcastTargets] } : {}),
    },
    logger: deps.logger,
  };

  for (const [index, port] of ports.entries()) {
    try {
      return { host: await start({ ...base(port), discovery }), instanceId, discoverable: true };
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
