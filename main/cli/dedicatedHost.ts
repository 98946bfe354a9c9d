import { LobbyHost, type LobbyHostOptions } from '../lobby/host/lobbyHost';
import { canStart } from '../../shared/lobby/lobbyReducer';
import { formatHostBanner } from './hostBanner';
import type { HostCliOptions } from './hostCliArgs';
import { describeLobbyChanges, guestCount } from './lobbyLog';
import { onAllReady as startRound } from './onAllReady';
import { openCliInternetRoom, presenceLine } from './cliInternetRoom';
import type { RoomOpening } from '../reach/roomReach';
import type { DatagramSource } from '../net/index';
import type { MapPort } from '../reach/portmap/portMapping';
import type { DhtNode } from '../reach/internet/dht/dhtNode';
import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';

/** The seat LobbyHost gives the host: in a dedicated room it is nobody, so it is named for what it is. */
export const DEDICATED_HOST_PLAYER = { name: 'Dedicated host', colour: '#8890a0' } as const;

/** How often a dedicated room announces itself to the LAN, when announcing. */
export const ANNOUNCE_INTERVAL_MS = 2000;

/** Where the dedicated host writes and how it starts rounds; injected so tests can watch. */
export interface DedicatedHostIo {
  /** One log line (no newline). */
  log(line: string): void;
  /** Called on the next turn of the event loop once every player is ready; default starts the round. */
  onAllReady?: (host: LobbyHost) => void;
  /** Extra LobbyHost options (tests pass interfaces and timings). */
  hostOptions?: Partial<LobbyHostOptions>;
  /** Extra ICE host-candidate addresses of an internet room (a namespace lab's). */
  iceHostAddresses?: readonly string[];
  /** Asks the router to map an internet room's port (a direct room); absent: port mapping is off. */
  mapPort?: MapPort;
  /** The DHT node an internet room listens on when the router maps nothing; absent: the DHT is off. */
  dht?: DhtNode;
}

/** A running dedicated room. */
export interface DedicatedHost {
  readonly host: LobbyHost;
  /** The start-up lines: name, code, addresses, discovery. */
  readonly banner: string[];
  /** The internet room's opening (its mux, presence and guests' ICE paths) with --reach internet. */
  readonly internet: RoomOpening | undefined;
  /** Tells the players the room is closing, then releases the ports. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens a LobbyHost for the CLI options and keeps it running by itself: logs every change, starts a round when
 * all players are ready, and returns to the lobby when a round is left empty. Rejects like LobbyHost.start
 * (a busy port, say).
 */
export async function startDedicatedHost(options: HostCliOptions, io: DedicatedHostIo): Promise<DedicatedHost> {
  const discovery: LobbyHostOptions['discovery'] =
    options.discoveryPort === null
      ? false
      : {
          port: options.discoveryPort,
          ...(options.announce ? { announce: { intervalMs: ANNOUNCE_INTERVAL_MS } } : {}),
        };
  // An internet room as well: its Server listens on the internet reach's socket mux (LAN guests still arrive on it).
  const internet: RoomOpening | undefined = options.internet
    ? await openCliInternetRoom({
        rendezvousUrl: options.internet.rendezvousUrl,
        capacity: options.maxPlayers,
        log: io.log,
        bindAddress: options.bindAddress,
        ...(io.iceHostAddresses ? { iceHostAddresses: io.iceHostAddresses } : {}),
        ...(io.mapPort ? { mapPort: io.mapPort } : {}),
        ...(io.dht ? { dht: io.dht } : {}),
      }).catch((error: unknown) => {
        // No rendezvous to fall back on and the router opened no door: said in words, and the LAN room stays.
        if (options.internet?.rendezvousUrl !== undefined || !isMissingDoor(error)) throw error;
        io.log(`No internet room: ${(error as IpcError).message} The LAN room stays open.`);
        return undefined;
      })
    : undefined;
  const host = await LobbyHost.start({
    roomName: options.name,
    playerName: DEDICATED_HOST_PLAYER.name,
    colour: DEDICATED_HOST_PLAYER.colour,
    // --max-players counts the people who play. LobbyHost's capacity counts its own seat too, so add it;
    // `dedicated` leaves that seat out of the LAN advert, which then agrees with the banner and the log.
    capacity: options.maxPlayers + 1,
    dedicated: true,
    port: options.port,
    bindAddress: options.bindAddress,
    discovery,
    ...(options.password !== undefined ? { password: options.password } : {}),
    ...(options.advertiseAddress !== undefined ? { advertiseAddress: options.advertiseAddress } : {}),
    ...(options.seatGraceSec !== undefined ? { seatGraceSec: options.seatGraceSec } : {}),
    ...(internet?.pathOf ? { pathOf: internet.pathOf } : {}),
    ...(internet?.sourceOf ? { sourceOf: internet.sourceOf } : {}),
    ...io.hostOptions,
    ...(internet?.openSocket ? { transport: { ...io.hostOptions?.transport, openSocket: internet.openSocket } } : {}),
  }).catch(async (error: unknown) => {
    await internet?.close();
    throw error;
  });
  const stopInternet = internet ? await registerInternetRoom(host, internet, io.log) : () => undefined;
  const allReady = io.onAllReady ?? startRound;
  let previous = host.state;
  let closed = false;
  let checkPending = false;

  // Acting inside an onState callback would nest state changes; look again on the next turn instead.
  const checkRoom = () => {
    if (checkPending) return;
    checkPending = true;
    setImmediate(() => {
      checkPending = false;
      if (closed) return;
      const state = host.state;
      if (canStart(state)) {
        io.log('Everyone is ready: starting a round');
        try {
          allReady(host);
        } catch (error) {
          io.log(`Could not start the round: ${(error as Error).message}`);
        }
      } else if (state.phase === 'playing' && guestCount(state) === 0) {
        io.log('Everyone left the round');
        host.endGame();
      }
    });
  };

  const stopListening = host.onState((next) => {
    for (const line of describeLobbyChanges(previous, next, options.maxPlayers)) io.log(line);
    previous = next;
    checkRoom();
  });

  const banner = formatHostBanner({
    roomName: options.name,
    code: host.code,
    shortCode: host.codes.shortCode,
    port: host.port,
    maxPlayers: options.maxPlayers,
    passwordProtected: options.password !== undefined,
    bindAddress: options.bindAddress,
    addresses: host.addresses,
    discovery: host.discoveryPort === undefined ? null : { port: host.discoveryPort, announce: options.announce },
  });
  const presence = internet?.presence?.();
  if (presence) banner.splice(2, 0, presenceLine(presence));

  return {
    host,
    banner,
    internet,
    async close() {
      if (closed) return;
      closed = true;
      stopListening();
      stopInternet();
      await host.close();
      await internet?.close();
    },
  };
}

/** The internet reach's refusal when neither the router's mapping nor a rendezvous can open the room. */
function isMissingDoor(error: unknown): boolean {
  return error instanceof IpcError && error.code === IpcErrorCode.FAILED_PRECONDITION;
}

/**
 * Registers the room with the rendezvous (rejecting, the room closed, when it cannot be), then logs its presence
 * as it changes and lets go of a guest's ICE path when the guest leaves or moves to a restarted one.
 */
async function registerInternetRoom(
  host: LobbyHost,
  internet: RoomOpening,
  log: (line: string) => void,
): Promise<() => void> {
  try {
    await internet.listening?.();
  } catch (error) {
    await host.close();
    await internet.close();
    throw error;
  }
  let last = internet.presence?.()?.status;
  // Letting a path go is network work that can fail: said in the log, and the room carries on.
  const releasePath = (source: DatagramSource): void =>
    void internet
      .release?.(source)
      .catch((error: unknown) => log(`could not release a guest's path: ${String(error)}`));
  const offs = [
    internet.onPresence?.(() => {
      const now = internet.presence?.();
      if (!now || now.status === last) return;
      last = now.status;
      log(presenceLine(now));
    }),
    host.transport.onConnect((peer) => internet.admitted?.(peer)),
    host.transport.onDisconnect((peer) => releasePath(peer)),
    host.transport.onMigrate((peer, from) => {
      const at = from.lastIndexOf(':');
      internet.admitted?.(peer);
      releasePath({ address: from.slice(0, at), port: Number(from.slice(at + 1)) });
    }),
  ];
  return () => offs.forEach((off) => off?.());
}
