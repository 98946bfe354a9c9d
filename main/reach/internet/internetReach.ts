import { IpcError, IpcErrorCode } from '../../../shared/ipc/errors';
import type { InternetSettings } from '../../../shared/ipc/schemas/internetSettings';
import { PlayerPath } from '../../../shared/lobby/lobbyState';
import { encodeDhtCode, readInternetCode, RendezvousError, type DhtCode } from '../../../shared/rendezvous';
import type { Logger } from '../../base/logger';
import type { Scheduler } from '../../base/scheduler';
import { createSocketMux, type SocketMux } from '../../net/ice';
import { openUdpDatagramSocket } from '../../net/index';
import type { MapPort } from '../portmap/portMapping';
import type { OpenRequest, RoomOpening, RoomReach, RoomTarget } from '../roomReach';
import {
  directJoinFailure,
  locateDirectRoom,
  locateSealedRoom,
  openDirectDoor,
  type DirectDoor,
} from './direct/directReach';
import { openDirectRoom, openSealedDoor, type DirectRoom } from './direct/directRoom';
import type { DhtNode } from './dht/dhtNode';
import { openDhtDoor, type DhtDoor } from './dht/dhtDoor';
import { connectDhtRoom, DhtConnectError } from './dht/dhtJoin';
import { dhtJoinFailureText } from './dht/dhtJoinFailure';
import { dhtJoinAgreement } from './internetJoinAgreement';
import { connectInternetRoom, locatedInternetRoom, roomLeftError, type InternetPath } from './internetJoin';
import { openInternetRoom, type InternetRoom } from './internetRoom';
import { keepPathAlive, type PathKeeper } from './pathKeeper';
import { portMapFailureText } from './direct/portMapFailureText';
import { stunEndpointsForSettings } from './iceServers';
import { welcomeRelays } from './rendezvousGuest';
import { SwitchableSocket } from './switchableSocket';

/** Options of {@link createInternetReach}. */
export interface InternetReachOptions {
  /** Rendezvous and TURN, read at each join and each room (the player may change them in Settings). */
  readonly settings: () => Promise<InternetSettings>;
  /** Timers of the rendezvous clients. */
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** Extra host-candidate addresses (werift skips veth/tun/tap interfaces); tests' namespaces pass theirs. */
  readonly hostAddresses?: readonly string[];
  /**
   * Asks the host's router for a UDP mapping (main/reach/portmap): tried first when a room opens, its public
   * address makes a direct room (a NET-D… code, no rendezvous). Absent: port mapping is off.
   */
  readonly mapPort?: MapPort;
  /** The local address of a direct room's socket and of a direct guest's; default every interface. */
  readonly bindAddress?: string;
  /**
   * The DHT node (dht/dhtNode.ts): a room the router maps no port for, with no rendezvous set, listens on the DHT
   * (a NET-K… code); a guest joins such a code through it. Absent: the DHT is off.
   */
  readonly dht?: DhtNode;
}

/** Seconds one try to come back to a held seat may take on the DHT: a new lookup and punch, then admission. */
const DHT_REJOIN_TRY_SEC = 18;

/** Where an internet room's guests come in besides the rendezvous: the router's mapped port, or the DHT. */
type Door =
  | { readonly kind: 'router'; readonly door: DirectDoor }
  | { readonly kind: 'dht'; readonly door: DhtDoor & { close(): Promise<void> } };

/** Seconds one try to come back to a held seat may take: a new path (about a second through a relay) and admission. */
const REJOIN_TRY_SEC = 8;

const noRendezvous = () =>
  new IpcError(
    IpcErrorCode.FAILED_PRECONDITION,
    'Internet rooms need a rendezvous server: add one in Settings → Internet rooms (see the README to run your own).',
  );

/**
 * The internet reach: a NET-… code is found through the rendezvous and joined over an encrypted ICE path (the
 * path is the guest's socket); a hosted room's Server listens on a mux over its UDP socket, LAN guests arriving
 * on the socket and each internet guest on its own secured path added to the mux. The keys are agreed by a
 * password-authenticated exchange on the code's secret (internetJoin.ts, internetRoom.ts); a path that changes
 * (an ICE restart) would surface from the located room and the opening, never through the lobby.
 */
export function createInternetReach(options: InternetReachOptions): RoomReach {
  const { scheduler, logger } = options;
  const iceHosts = options.hostAddresses ? { hostAddresses: options.hostAddresses } : {};

  /**
   * The room's door: the router's when it maps a port (checked for a second NAT against the STUN server the
   * settings name); else the rendezvous when one is set (its relay reaches every pair of networks); else the DHT when
   * it is on; else why none, in words.
   */
  async function chooseDoor(settings: InternetSettings): Promise<Door | undefined> {
    const rendezvous = settings.rendezvousUrl !== null;
    let failure: string | undefined;
    let detail: string | undefined;
    if (options.mapPort) {
      const stunServer = async () =>
        (await stunEndpointsForSettings(settings, (url) => welcomeRelays(url, scheduler)))[0];
      const mapped = await openDirectDoor(options.mapPort, options.bindAddress ?? '0.0.0.0', logger, stunServer);
      if (mapped.ok) return { kind: 'router', door: mapped.door };
      failure = portMapFailureText(mapped.failure);
      detail = JSON.stringify(mapped.failure);
      logger.info(`no router mapping (${mapped.failure.kind})`);
    }
    if (rendezvous) {
      logger.info('the room uses the rendezvous');
      return undefined;
    }
    if (options.dht) {
      try {
        const door = await openDhtDoor({ dht: await options.dht.get(), scheduler, logger });
        return { kind: 'dht', door };
      } catch (error) {
        logger.warn('could not listen on the DHT', error);
        throw new IpcError(
          IpcErrorCode.FAILED_PRECONDITION,
          'Could not open the internet room: the DHT, where guests would find it, did not answer. Check this computer’s internet connection, or add a rendezvous server in Settings → Internet rooms.',
          String(error),
        );
      }
    }
    if (failure === undefined) throw noRendezvous();
    throw new IpcError(IpcErrorCode.FAILED_PRECONDITION, failure, detail);
  }

  async function open(request: OpenRequest): Promise<RoomOpening> {
    const settings = await options.settings();
    const door = await chooseDoor(settings);
    let mux: SocketMux | undefined;
    let room: InternetRoom | null = null;
    let direct: DirectRoom | null = null;
    return {
      openSocket: async (socketOptions) => (mux = createSocketMux(await openUdpDatagramSocket(socketOptions))).socket,
      pathOf: (peer) => direct?.pathOf(peer) ?? room?.pathOf(peer) ?? PlayerPath.LAN,
      sourceOf: (peer) => direct?.sourceOf(peer) ?? room?.sourceOf(peer),
      async listening() {
        // A test's host may not open its socket through us: then there is nothing to register.
        if (!mux) return;
        if (door?.kind === 'router') {
          const { socket, mapping } = door.door;
          const at = { publicAddress: mapping.externalAddress, publicPort: mapping.externalPort };
          const room = (direct = openDirectRoom({ socket, ...at, mux, scheduler, logger }));
          // A renewal that moves the mapping moves the code with it (the old one points at a dead port).
          mapping.onMoved(() => room.move(mapping.externalAddress, mapping.externalPort));
          return;
        }
        if (door?.kind === 'dht') {
          const dht = door.door;
          direct = openSealedDoor({
            socket: dht.socket,
            invite: (secret) => {
              const code: DhtCode = { publicKey: dht.publicKey, secret };
              return { code: encodeDhtCode(code.publicKey, secret), context: dhtJoinAgreement(code) };
            },
            path: PlayerPath.DHT,
            onPath: { joined: (source) => dht.proved(source), left: (source) => dht.release(source) },
            mux,
            scheduler,
            logger,
            ...(request.capacity !== undefined ? { maxPaths: request.capacity + 4 } : {}),
          });
          return;
        }
        try {
          room = await openInternetRoom({
            settings,
            mux,
            scheduler,
            logger,
            ...iceHosts,
            ...(request.capacity !== undefined ? { capacity: request.capacity } : {}),
          });
        } catch (error) {
          throw error instanceof RendezvousError
            ? new IpcError(IpcErrorCode.UNAVAILABLE, `Could not open the internet room: ${error.message}`)
            : error;
        }
      },
      presence: () => {
        if (direct) return { code: direct.code, status: 'registered', message: null };
        if (!room) return undefined;
        const status = room.status;
        return { code: room.code, status: status.state, message: 'error' in status ? status.error.message : null };
      },
      onPresence: (listener) => direct?.onCode(listener) ?? room?.onStatus(() => listener()) ?? (() => undefined),
      admitted: (peer) => room?.admitted(peer),
      release: async (peer) => {
        await direct?.release(peer);
        await room?.release(peer);
      },
      close: async () => {
        await (direct ? direct.close() : door?.kind === 'router' ? door.door.socket.close() : door?.door.close());
        if (door?.kind === 'router') await door.door.mapping.close();
        await room?.close();
      },
    };
  }

  /** A path wrapped so it can be replaced under the session: a path that falls silent is restarted (pathKeeper.ts). */
  async function keepInternetPath(
    path: InternetPath,
    label: RoomTarget,
    reopen: () => Promise<InternetPath>,
  ): Promise<{ socket: SwitchableSocket; keeper: PathKeeper }> {
    // Over the internet the secured ICE path is the socket: the Client's connect() ignores the target.
    const socket = new SwitchableSocket(path.socket, await path.socket.connect(1, label.host), () => scheduler.now());
    const keeper = keepPathAlive({
      socket,
      first: path,
      scheduler,
      reopen: async () => {
        const next = await reopen();
        logger.info(`internet path reopened ${next.path.kind} (${next.path.localType}→${next.path.remoteType})`);
        return next;
      },
      onRestart: (r) =>
        logger.info(
          `internet path ${r.ok ? 'restarted' : 'not restarted'}: ${Math.round(r.gapMs)} ms without the ` +
            `host (${Math.round(r.limitMs)} ms counted as gone), the ICE restart took ${Math.round(r.tookMs)} ms` +
            `${r.ok ? '' : ` (${String(r.error)})`}`,
        ),
      onHeardAgain: (heard) =>
        logger.info(`internet path back: the host heard again ${Math.round(heard.gapMs)} ms after it fell silent`),
    });
    return { socket, keeper };
  }

  /** A DHT room: a stream to its key through the DHT node for each path (the first, and each rejoin's). */
  async function locateDhtRoom(
    code: DhtCode,
    text: string,
    onProgress: (progress: { readonly target?: RoomTarget; readonly step?: 'finding-host' }) => void,
  ) {
    const node = options.dht;
    if (!node) {
      throw new IpcError(
        IpcErrorCode.FAILED_PRECONDITION,
        'This code is for a room found on the public DHT, which this LAN Party was started without: ask the host for a code through a rendezvous server, or start LAN Party with the DHT on.',
      );
    }
    const rendezvous = (await options.settings()).rendezvousUrl !== null;
    const connect = async () =>
      connectDhtRoom(code, { dht: await node.get(), scheduler }).catch((error: unknown) => {
        if (!(error instanceof DhtConnectError)) throw directJoinFailure(error);
        logger.info(`no path through the DHT (${error.failure}): ${error.message}`);
        throw new IpcError(IpcErrorCode.UNAVAILABLE, dhtJoinFailureText(error.failure, rendezvous), error.failure);
      });
    return locateSealedRoom(
      text,
      connect,
      (target) => onProgress({ target, step: 'finding-host' }),
      DHT_REJOIN_TRY_SEC,
    );
  }

  return {
    async locate(request, { onProgress }) {
      // The lobby sends only NET-… codes here; connectInternetRoom refuses anything else in words.
      const code = 'code' in request ? request.code : request.host;
      const read = readInternetCode(code);
      if (read.ok && read.invite.kind === 'direct') {
        return locateDirectRoom(read.invite.code, code, {
          scheduler,
          ...(options.bindAddress ? { bindAddress: options.bindAddress } : {}),
          onTarget: (target) => onProgress({ target, step: 'finding-host' }),
        });
      }
      if (read.ok && read.invite.kind === 'dht') return locateDhtRoom(read.invite.code, code, onProgress);
      // The code is checked (and explained) by connectInternetRoom; the target only labels the view.
      const { target: label, connectTo } = locatedInternetRoom(code);
      onProgress({ target: label, step: 'finding-host' });
      const settings = await options.settings();
      const connect = () => connectInternetRoom(code, { settings, scheduler, ...iceHosts });
      const path = await connectInternetRoom(code, {
        settings,
        scheduler,
        onStep: (step) => onProgress({ step }),
        ...iceHosts,
      });
      const kept = await keepInternetPath(path, label, connect);
      let current = { ...kept, handedOut: false };
      let closed = false;
      return {
        target: label,
        connectTo,
        // The first socket is the path just found. Asked again, the guest's Client gave up on that path (an ICE
        // restart that took too long or failed) and the guest is coming back to its seat with its resume
        // token: it gets a fresh path (a new ICE session through the rendezvous), never the closed one.
        openSocket: async () => {
          if (closed) throw roomLeftError();
          if (!current.handedOut) {
            current.handedOut = true;
            return current.socket;
          }
          await current.keeper.close();
          const started = scheduler.now();
          const opened = await connect().catch((error: unknown) => {
            logger.warn(`no new internet path to come back to the seat: ${String(error)}`);
            throw error;
          });
          logger.info(
            `new internet path to come back to the seat: ${opened.path.kind} after ${Math.round(scheduler.now() - started)} ms`,
          );
          const fresh = await keepInternetPath(opened, label, connect);
          if (closed) {
            await fresh.keeper.close();
            throw roomLeftError();
          }
          current = { ...fresh, handedOut: true };
          return fresh.socket;
        },
        // A try to take the seat back runs the rendezvous and ICE before the hello: more than the LAN's 2 s.
        rejoinTimeoutSec: REJOIN_TRY_SEC,
        internetCode: code,
        close: () => {
          closed = true;
          return current.keeper.close();
        },
      };
    },
    open,
  };
}
