import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import type { LobbyView } from '../../shared/ipc/schemas/lobby';
import type { Settings } from '../../shared/ipc/schemas/settings';
import { startBlocker } from '../../shared/ipc/startBlocker';
import { roomCapacityRange } from '../../shared/ipc/schemas/lobby';
import type { GameDefinition } from '../../shared/games/gameDefinition';
import { DEFAULT_GAME_ID, GAMES } from '../../shared/games/registry';
import { decode, parseJoinCode, RoomCodeError, type JoinCode } from '../../shared/roomCode';
import type { HostAddresses } from '../../shared/ipc/schemas/lobby';
import { probeServer, type NetworkInterfacesLike, type ProbeResult } from '../net/discovery';
import { networkInterfaces as osNetworkInterfaces } from 'node:os';
import { advertVerdict } from './advertVerdict';
import { candidatesFor, findRoom, soleCandidate, type FoundRoom } from './findRoom';
import { chooseAdvertiseAddress, hostAddresses } from './hostAddresses';
import { resolveRoomHost, type Ipv4Lookup } from '../net/index';
import { LobbyGuest, type LobbyJoinOptions } from './lobbyGuest';
import type { LobbyHost } from './host/lobbyHost';
import type { JoinRoute } from '../conditioner/devConditioner';
import { describeJoinFailure, roomCodeFailure } from './joinFailure';
import { lobbyNameOf, defaultRoomName } from './lobbyNames';
import { lobbyViewOf, type LobbyPhase, type RoomTarget } from './lobbyView';
import { Listeners } from '../base/listeners';
import type { Logger } from '../base/logger';
import type { NetworkOptions } from '../base/networkOptions';
import { openRoom, type OpenRoomDeps } from './openRoom';
import { createSocketMux, type SocketMux } from '../net/ice';
import { openUdpDatagramSocket } from '../net/index';
import { systemScheduler, type Scheduler } from '../base/scheduler';
import { DEFAULT_INTERNET_SETTINGS, type InternetSettings } from '../../shared/ipc/schemas/internetSettings';
import { looksLikeInternetCode } from '../../shared/rendezvous';
import { openInternetRoom, type InternetRoom } from './internet/internetRoom';
import { connectInternetRoom, type InternetPath } from './internet/internetJoin';
import { RendezvousError } from '../../shared/rendezvous';
import type { InternetView } from './lobbyView';
import { guestShortCode } from './roomCodes';

/** The live room object, for the game wiring to share its transport. */
export type LobbySession =
  { readonly role: 'host'; readonly host: LobbyHost } | { readonly role: 'guest'; readonly guest: LobbyGuest };

/** Options of {@link createLobbyService}. */
export interface LobbyServiceOptions {
  readonly network: NetworkOptions;
  /** The player's current name and colour. */
  readonly settings: () => Promise<Settings>;
  readonly platform: string;
  /** This app's version, exchanged at join so a version refusal can say which side must update. */
  readonly appVersion?: string;
  readonly logger: Logger;
  /** Resolves host names for join-by-address; default the system resolver. */
  readonly lookup?: Ipv4Lookup;
  /** Swappable for tests. */
  readonly startHost?: OpenRoomDeps['start'];
  readonly joinGuest?: (options: LobbyJoinOptions) => Promise<LobbyGuest>;
  /** A relay to join the room through (the developer link conditioner), or null to join it directly. */
  readonly routeTo?: (target: RoomTarget) => Promise<JoinRoute | null>;
  /** Rendezvous and TURN for internet rooms; default none (internet rooms off). */
  readonly internetSettings?: () => Promise<InternetSettings>;
  /** Timers of the rendezvous clients; default the real ones. */
  readonly scheduler?: Scheduler;
  /** Asks an address's discovery port whether a room is there; default one unicast probe (~300 ms). */
  readonly probe?: (host: string, discoveryPort: number) => Promise<ProbeResult>;
}

/** What the room requests need: validated input in, the new view out, IpcErrors for expected failures. */
export interface LobbyService {
  view(): LobbyView;
  onChange(listener: (view: LobbyView) => void): () => void;
  host(input: {
    roomName?: string;
    gameId?: string;
    capacity?: number;
    password?: string;
    port?: number;
    reach?: 'lan' | 'internet';
    advertiseAddress?: string;
  }): Promise<LobbyView>;
  /** Joins by a short or full code, confirming the room with a probe first unless `probe` is false. */
  joinByCode(input: { code: string; password?: string; probe?: boolean }): Promise<LobbyView>;
  /** The addresses a room can put in its code, and the one it would use. */
  addresses(): Promise<HostAddresses>;
  joinByAddress(input: { host: string; port: number; password?: string }): Promise<LobbyView>;
  /** Leaves (a host closes the room for everyone), cancels a join, or dismisses an ended stay. */
  leave(): Promise<LobbyView>;
  setReady(ready: boolean): LobbyView;
  chat(text: string): LobbyView;
  kick(playerId: number): LobbyView;
  /** Starts the round once everyone is ready; during a round (its results up) the same game again: Play again. */
  start(): LobbyView;
  endRound(): LobbyView;
  /** The room object while in one. */
  session(): LobbySession | null;
  onSession(listener: (session: LobbySession | null) => void): () => void;
  /** Our room's discovery instance id while hosting with discovery. */
  ownInstanceId(): string | null;
  close(): Promise<void>;
}

const notInRoom = () => new IpcError(IpcErrorCode.FAILED_PRECONDITION, 'You are not in a room.');

/** The game a new room plays and its capacity, checked: an unknown game or a size it cannot take is refused. */
function roomGame(input: { gameId?: string; capacity?: number }): { game: GameDefinition; capacity: number } {
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
const hostOnly = (what: string) => new IpcError(IpcErrorCode.PERMISSION_DENIED, `Only the host can ${what}.`);

/** Creates the service that runs this app's one room (hosted or joined). */
export function createLobbyService(options: LobbyServiceOptions): LobbyService {
  const { network, logger } = options;
  const readInterfaces = (): NetworkInterfacesLike => (network.networkInterfaces ?? osNetworkInterfaces)();
  const probe =
    options.probe ??
    ((host: string, port: number) => probeServer({ host, port, bindAddress: network.discoveryBindAddress }));
  const joinGuest = options.joinGuest ?? ((o: LobbyJoinOptions) => LobbyGuest.join(o));
  const reportListenerError = (error: unknown): void => logger.warn('lobby listener failed', error);
  const viewListeners = new Listeners<[LobbyView]>(reportListenerError);
  const sessionListeners = new Listeners<[LobbySession | null]>(reportListenerError);
  let phase: LobbyPhase = { kind: 'idle' };
  let session: LobbySession | null = null;
  let instanceId: string | null = null;
  let unsubscribe: (() => void)[] = [];
  // The relay the current guest stay goes through, closed when the stay ends.
  let route: JoinRoute | null = null;
  const closeRoute = async (which: JoinRoute | null): Promise<void> => {
    if (route === which) route = null;
    await which?.close().catch((error: unknown) => logger.warn('closing the join relay failed', error));
  };
  // Bumped whenever the player leaves, so a host or join still in flight knows it is no longer wanted.
  let epoch = 0;
  // The hosted room's rendezvous presence, or the guest's ICE path, while an internet room is open.
  let internetRoom: InternetRoom | null = null;
  let internetPath: InternetPath | null = null;
  const scheduler = options.scheduler ?? systemScheduler;
  const internetSettings = async (): Promise<InternetSettings> =>
    (await options.internetSettings?.()) ?? DEFAULT_INTERNET_SETTINGS;
  const closeInternet = async (): Promise<void> => {
    const room = internetRoom;
    const path = internetPath;
    internetRoom = null;
    internetPath = null;
    await room?.close().catch((error: unknown) => logger.warn('closing the internet room failed', error));
    await path?.close().catch((error: unknown) => logger.warn('closing the internet path failed', error));
  };
  const noRendezvous = () =>
    new IpcError(
      IpcErrorCode.FAILED_PRECONDITION,
      'Internet rooms need a rendezvous server: add one in Settings → Internet rooms (see the README to run your own).',
    );

  const setPhase = (next: LobbyPhase): LobbyView => {
    phase = next;
    const view = lobbyViewOf(phase);
    viewListeners.emit(view);
    return view;
  };
  const setSession = (next: LobbySession | null): void => {
    for (const off of unsubscribe) off();
    unsubscribe = [];
    session = next;
    sessionListeners.emit(next);
  };
  const assertFree = (): void => {
    if (phase.kind === 'ended') setPhase({ kind: 'idle' });
    if (phase.kind !== 'idle') {
      throw new IpcError(IpcErrorCode.FAILED_PRECONDITION, 'You are already in a room. Leave it first.');
    }
  };
  const cancelled = () => new IpcError(IpcErrorCode.FAILED_PRECONDITION, 'Cancelled: you left before it finished.');

  async function host(input: Parameters<LobbyService['host']>[0]): Promise<LobbyView> {
    const { game, capacity } = roomGame(input);
    assertFree();
    const internet = input.reach === 'internet' ? await internetSettings() : null;
    if (internet && internet.rendezvousUrl === null) throw noRendezvous();
    const run = ++epoch;
    setPhase({ kind: 'opening' });
    let opened;
    // An internet room's Server listens on a mux over its UDP socket: LAN guests arrive on the socket, each
    // internet guest on its own secured ICE path added to the mux.
    let mux: SocketMux | undefined;
    let room: InternetRoom | null = null;
    try {
      const settings = await options.settings();
      const playerName = lobbyNameOf(settings.playerName);
      const advertiseAddress = chooseAdvertiseAddress(
        input.advertiseAddress,
        settings.hostInterface,
        readInterfaces(),
        network.advertiseAddress,
      );
      opened = await openRoom(
        {
          roomName: input.roomName ?? defaultRoomName(playerName),
          gameId: game.id,
          playerName,
          colour: settings.playerColor,
          capacity,
          password: input.password,
          port: input.port,
          ...(options.appVersion !== undefined ? { appVersion: options.appVersion } : {}),
          ...(internet
            ? {
                openSocket: async (socketOptions) =>
                  (mux = createSocketMux(await openUdpDatagramSocket(socketOptions))).socket,
                pathOf: (peer) => room?.pathOf(peer) ?? 'lan',
              }
            : {}),
          ...(advertiseAddress !== undefined ? { advertiseAddress } : {}),
        },
        { network, platform: options.platform, logger, ...(options.startHost ? { start: options.startHost } : {}) },
      );
      if (internet && mux) {
        try {
          room = await openInternetRoom({
            settings: internet,
            mux,
            scheduler,
            logger,
            ...(network.iceHostAddresses ? { hostAddresses: network.iceHostAddresses } : {}),
          });
        } catch (error) {
          await opened.host.close();
          throw error instanceof RendezvousError
            ? new IpcError(IpcErrorCode.UNAVAILABLE, `Could not open the internet room: ${error.message}`)
            : error;
        }
      }
    } catch (error) {
      if (run === epoch) setPhase({ kind: 'idle' });
      throw error;
    }
    const lobby = opened.host;
    if (run !== epoch) {
      await lobby.close();
      await room?.close();
      throw cancelled();
    }
    instanceId = opened.instanceId;
    internetRoom = room;
    const target: RoomTarget = { host: decode(lobby.code).host, port: lobby.port };
    const internetView = (): InternetView | undefined => {
      if (!room) return undefined;
      const status = room.status;
      return {
        code: room.code,
        status: status.state,
        message: 'error' in status ? status.error.message : null,
      };
    };
    const hosting = (state = lobby.state): LobbyPhase => ({
      kind: 'hosting',
      codes: lobby.codes,
      target,
      addresses: lobby.addresses,
      discoverable: opened.discoverable,
      state,
      ...(room ? { internet: internetView()! } : {}),
    });
    setSession({ role: 'host', host: lobby });
    unsubscribe.push(lobby.onState((state) => setPhase(hosting(state))));
    if (room) {
      const current = room;
      unsubscribe.push(current.onStatus(() => setPhase(hosting())));
      unsubscribe.push(lobby.transport.onDisconnect((peer) => void current.release(peer)));
    }
    return setPhase(hosting());
  }

  /**
   * Joins a room. `locate`, when given, first finds (and confirms) where the room is, `provisional` being
   * shown meanwhile; `internet`, when given, first finds the host through the rendezvous and opens an encrypted
   * ICE path to it. The player can leave during either as during the connection.
   */
  async function join(
    provisional: RoomTarget,
    password: string | undefined,
    locate?: () => Promise<RoomTarget>,
    internet?: { readonly code: string; readonly settings: InternetSettings },
  ): Promise<LobbyView> {
    assertFree();
    const run = ++epoch;
    setPhase({ kind: 'joining', target: provisional, ...(internet ? { step: 'finding-host' as const } : {}) });
    let target = provisional;
    let guest: LobbyGuest;
    let via: JoinRoute | null = null;
    let path: InternetPath | null = null;
    try {
      if (locate) {
        target = await locate();
        if (run !== epoch) throw cancelled();
        if (target.host !== provisional.host || target.port !== provisional.port) {
          setPhase({ kind: 'joining', target });
        }
      }
      const settings = await options.settings();
      if (internet) {
        path = await connectInternetRoom(internet.code, {
          settings: internet.settings,
          scheduler,
          onStep: (step) => {
            if (run === epoch) setPhase({ kind: 'joining', target, step });
          },
          ...(network.iceHostAddresses ? { hostAddresses: network.iceHostAddresses } : {}),
        });
      } else {
        via = (await options.routeTo?.(target)) ?? null;
      }
      const secured = path?.socket;
      guest = await joinGuest({
        // Over the internet the secured ICE path is the socket: its connect() ignores the target.
        host: via?.host ?? target.host,
        port: via?.port ?? (target.port || 1),
        ...(secured ? { transport: { openSocket: async () => secured } } : {}),
        playerName: lobbyNameOf(settings.playerName),
        colour: settings.playerColor,
        timeout: network.joinTimeoutSec,
        logger,
        ...(password !== undefined ? { password } : {}),
        ...(options.appVersion !== undefined ? { appVersion: options.appVersion } : {}),
      });
    } catch (error) {
      await closeRoute(via);
      await path?.close();
      if (run === epoch) setPhase({ kind: 'idle' });
      throw error instanceof IpcError ? error : describeJoinFailure(error, password !== undefined);
    }
    if (run !== epoch) {
      await guest.leave();
      await closeRoute(via);
      await path?.close();
      throw cancelled();
    }
    route = via;
    internetPath = path;
    const code = internet
      ? { internetCode: internet.code }
      : { shortCode: guestShortCode(target.host, target.port, readInterfaces()) };
    setSession({ role: 'guest', guest });
    unsubscribe.push(guest.onState((state) => setPhase({ kind: 'guest', target, you: guest.you, state, ...code })));
    unsubscribe.push(
      guest.onEnd((end) => {
        if (session?.role !== 'guest' || session.guest !== guest) return;
        setSession(null);
        void closeRoute(via);
        void closeInternet();
        setPhase({ kind: 'ended', end, target, you: guest.you, state: guest.state });
      }),
    );
    return setPhase({ kind: 'guest', target, you: guest.you, state: guest.state, ...code });
  }

  /** Probes where the code leads, and refuses at once what the room's reply already rules out. */
  async function confirmRoom(code: JoinCode, passwordGiven: boolean): Promise<FoundRoom> {
    const found = await findRoom(code, {
      interfaces: readInterfaces(),
      discoveryPort: network.discoveryPort,
      probe: (host) => probe(host, network.discoveryPort),
      platform: options.platform,
    });
    const refusal = found.advert && advertVerdict(found.advert, { appVersion: options.appVersion, passwordGiven });
    if (refusal) throw describeJoinFailure(refusal, passwordGiven);
    return found;
  }

  /** "Try anyway": the code's one address, without asking it first. */
  function unconfirmed(code: JoinCode): FoundRoom {
    const only = soleCandidate(candidatesFor(code, readInterfaces()));
    if (!only) {
      throw new IpcError(
        IpcErrorCode.UNAVAILABLE,
        'This short code fits more than one of your networks (or none), so it cannot be tried unconfirmed. ' +
          'Ask the host for the full code (“Code for gale.net games”).',
      );
    }
    return { target: { host: only.host, port: only.port }, advert: undefined };
  }

  const inRoom = (): LobbySession => {
    if (!session) throw notInRoom();
    return session;
  };
  const asHost = (what: string): LobbyHost => {
    const current = inRoom();
    if (current.role !== 'host') throw hostOnly(what);
    return current.host;
  };

  async function leave(): Promise<LobbyView> {
    epoch += 1;
    const current = session;
    instanceId = null;
    setSession(null);
    if (current?.role === 'host') await current.host.close();
    if (current?.role === 'guest') await current.guest.leave();
    await closeRoute(route);
    await closeInternet();
    return setPhase({ kind: 'idle' });
  }

  return {
    view: () => lobbyViewOf(phase),
    onChange: (listener) => viewListeners.add(listener),
    host,
    async joinByCode({ code, password, probe: confirm = true }) {
      if (looksLikeInternetCode(code)) {
        assertFree();
        const settings = await internetSettings();
        // The code is checked (and explained) by connectInternetRoom; the target only labels the view.
        return join({ host: code.trim().toUpperCase().slice(0, 40), port: 0 }, password, undefined, {
          code,
          settings,
        });
      }
      let parsed: JoinCode;
      try {
        parsed = parseJoinCode(code);
      } catch (error) {
        throw error instanceof RoomCodeError ? roomCodeFailure(error) : error;
      }
      assertFree();
      if (!confirm) return join(unconfirmed(parsed).target, password);
      const first = candidatesFor(parsed, readInterfaces())[0];
      const provisional = first ? { host: first.host, port: first.port } : { host: '0.0.0.0', port: parsed.port };
      return join(provisional, password, async () => (await confirmRoom(parsed, password !== undefined)).target);
    },
    async addresses() {
      const settings = await options.settings();
      return hostAddresses(readInterfaces(), network.advertiseAddress, settings.hostInterface);
    },
    async joinByAddress({ host: name, port, password }) {
      assertFree();
      let address: string;
      try {
        address = await resolveRoomHost(name, options.lookup);
      } catch (error) {
        if (!(error instanceof RoomCodeError)) throw error;
        throw new IpcError(
          IpcErrorCode.NOT_FOUND,
          `Could not find a computer called “${name}” on the network. Check the name, or type the host’s IP ` +
            'address (like 192.168.1.20).',
        );
      }
      return join({ host: address, port }, password);
    },
    leave,
    setReady(ready) {
      const current = inRoom();
      if (current.role === 'host') current.host.setReady(ready);
      else current.guest.setReady(ready);
      return lobbyViewOf(phase);
    },
    chat(text) {
      const current = inRoom();
      if (current.role === 'host') current.host.chat(text);
      else current.guest.chat(text);
      return lobbyViewOf(phase);
    },
    kick(playerId) {
      const room = asHost('remove players');
      if (!room.kick(playerId)) {
        throw new IpcError(IpcErrorCode.NOT_FOUND, 'That player is no longer in the room.');
      }
      return lobbyViewOf(phase);
    },
    start() {
      const room = asHost('start the round');
      // While a round is on (its results showing), starting is the results' "Play again": same players, same game.
      if (room.state.phase === 'playing') {
        room.playAgain();
        return lobbyViewOf(phase);
      }
      const blocker = startBlocker(room.state);
      if (blocker) throw new IpcError(IpcErrorCode.FAILED_PRECONDITION, blocker);
      room.startGame();
      return lobbyViewOf(phase);
    },
    endRound() {
      asHost('end the round').endGame();
      return lobbyViewOf(phase);
    },
    session: () => session,
    onSession: (listener) => sessionListeners.add(listener),
    ownInstanceId: () => instanceId,
    async close() {
      await leave();
      viewListeners.clear();
      sessionListeners.clear();
    },
  };
}
