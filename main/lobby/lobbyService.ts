import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import { SEAT_GRACE, type LobbyView } from '../../shared/ipc/schemas/lobby';
import type { Settings } from '../../shared/ipc/schemas/settings';
import { startBlocker } from '../../shared/ipc/startBlocker';
import type { HostAddresses } from '../../shared/ipc/schemas/lobby';
import type { JoinRequest, JoinStep, RoomReach, RoomTarget } from '../reach/roomReach';
import { looksLikeInternetCode } from '../../shared/rendezvous';
import type { LanReach } from '../reach/lan/index';
import type { LobbyGuest, LobbyJoinOptions } from './lobbyGuest';
import { joinRoom, leftBeforeDone } from './joinRoom';
import { systemScheduler, type Scheduler } from '../base/scheduler';
import type { LobbyHost } from './host/lobbyHost';
import { hostingPhase, lobbyViewOf, type LobbyPhase } from './lobbyView';
import { Listeners } from '../base/listeners';
import type { Logger } from '../base/logger';
import type { NetworkOptions } from '../base/networkOptions';
import type { DatagramSource } from '../net/index';
import { combineOpenings, openReachedRoom, roomGame, type OpenRoomDeps } from './openRoom';

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
  /** The ways rooms are reached: the LAN always, the internet when the app has it (createBackend builds both). */
  readonly reaches: { readonly lan: LanReach; readonly internet?: RoomReach };
  /** Swappable for tests. */
  readonly startHost?: OpenRoomDeps['start'];
  readonly joinGuest?: (options: LobbyJoinOptions) => Promise<LobbyGuest>;
  /** Timers of a join that waits out a host's short "Too many tries"; real time by default. */
  readonly scheduler?: Scheduler;
}

/** What the room requests need: validated input in, IpcErrors for expected failures; views only via view/onChange. */
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
    /** Seconds a guest that lost its link keeps its seat; default SEAT_GRACE.DEFAULT. */
    seatGraceSec?: number;
  }): Promise<void>;
  /** Joins by a short or full code, confirming the room with a probe first unless `probe` is false. */
  joinByCode(input: { code: string; password?: string; probe?: boolean }): Promise<void>;
  /** The addresses a room can put in its code, and the one it would use. */
  addresses(): Promise<HostAddresses>;
  joinByAddress(input: { host: string; port: number; password?: string }): Promise<void>;
  /** Leaves (a host closes the room for everyone), cancels a join, or dismisses an ended stay. */
  leave(): Promise<void>;
  setReady(ready: boolean): void;
  chat(text: string): void;
  kick(playerId: number): void;
  /** Starts the round once everyone is ready; during a round (its results up) the same game again: Play again. */
  start(): void;
  endRound(): void;
  /** The room object while in one. */
  session(): LobbySession | null;
  onSession(listener: (session: LobbySession | null) => void): () => void;
  /** Our room's discovery instance id while hosting with discovery. */
  ownInstanceId(): string | null;
  close(): Promise<void>;
}

const notInRoom = () => new IpcError(IpcErrorCode.FAILED_PRECONDITION, 'You are not in a room.');

const hostOnly = (what: string) => new IpcError(IpcErrorCode.PERMISSION_DENIED, `Only the host can ${what}.`);

/** Creates the service that runs this app's one room (hosted or joined). */
export function createLobbyService(options: LobbyServiceOptions): LobbyService {
  const { network, logger, reaches } = options;
  const reportListenerError = (error: unknown): void => logger.warn('lobby listener failed', error);
  const viewListeners = new Listeners<[LobbyView]>(reportListenerError);
  const sessionListeners = new Listeners<[LobbySession | null]>(reportListenerError);
  let phase: LobbyPhase = { kind: 'idle' };
  let session: LobbySession | null = null;
  let instanceId: string | null = null;
  let unsubscribe: (() => void)[] = [];
  // What the reaches hold for the current stay (a relay, an ICE path, a rendezvous presence), let go when it ends.
  let held: { close(): Promise<void> } | null = null;
  const release = async (): Promise<void> => {
    const current = held;
    held = null;
    await current?.close().catch((error: unknown) => logger.warn('closing the room’s reach failed', error));
  };
  // Aborted whenever the player leaves or starts anew, so a host or join still in flight knows it is unwanted.
  let stay = new AbortController();
  const restart = (): AbortSignal => {
    stay.abort();
    stay = new AbortController();
    return stay.signal;
  };
  // Bumped with every phase, so a reader keeps views in order (a page reconnecting mixes lobby.get and events).
  let revision = 0;
  const viewNow = (): LobbyView => lobbyViewOf(phase, revision);

  const setPhase = (next: LobbyPhase): void => {
    phase = next;
    revision += 1;
    viewListeners.emit(viewNow());
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

  async function host(input: Parameters<LobbyService['host']>[0]): Promise<void> {
    const { game, capacity } = roomGame(input);
    assertFree();
    const settings = await options.settings();
    const wanted = input.reach === 'internet' ? [reaches.lan, reaches.internet] : [reaches.lan];
    if (wanted.includes(undefined)) throw new IpcError(IpcErrorCode.UNAVAILABLE, 'Internet rooms are off here.');
    const request = { advertiseAddress: input.advertiseAddress, rememberedInterface: settings.hostInterface, capacity };
    const opening = combineOpenings(await Promise.all(wanted.map((reach) => reach!.open(request))));
    const signal = restart();
    setPhase({ kind: 'opening' });
    let opened;
    try {
      opened = await openReachedRoom({ ...input, gameId: game.id, capacity }, settings, opening, {
        network,
        platform: options.platform,
        logger,
        ...(options.appVersion !== undefined ? { appVersion: options.appVersion } : {}),
        ...(options.startHost ? { start: options.startHost } : {}),
      });
    } catch (error) {
      if (!signal.aborted) setPhase({ kind: 'idle' });
      throw error;
    }
    const lobby = opened.host;
    if (signal.aborted) {
      await lobby.close();
      await opening.close();
      throw leftBeforeDone();
    }
    instanceId = opened.instanceId;
    held = opening;
    const hosting = (state = lobby.state): LobbyPhase =>
      hostingPhase(lobby, {
        discoverable: opened.discoverable,
        state,
        internet: opening.presence?.(),
        seatGraceSec: input.seatGraceSec ?? SEAT_GRACE.DEFAULT,
      });
    setSession({ role: 'host', host: lobby });
    unsubscribe.push(lobby.onState((state) => setPhase(hosting(state))));
    if (opening.onPresence) unsubscribe.push(opening.onPresence(() => setPhase(hosting())));
    // A reach keeps a guest's path only once the Server took a peer on it (an internet room drops silent ones).
    unsubscribe.push(lobby.transport.onConnect((peer) => opening.admitted?.(peer)));
    // Letting a guest's path go is network work that can fail; the room carries on either way.
    const releasePath = (source: DatagramSource): void =>
      void opening.release?.(source).catch((error: unknown) => logger.warn('could not release a guest’s path', error));
    unsubscribe.push(lobby.transport.onDisconnect((peer) => releasePath(peer)));
    // A guest whose path was restarted (ICE restart) moved to its new path: that one is kept, the old one goes.
    unsubscribe.push(
      lobby.transport.onMigrate((peer, from) => {
        opening.admitted?.(peer);
        releasePath(endpointOf(from));
      }),
    );
    setPhase(hosting());
  }

  /** "address:port" (a peer's endpoint) as a datagram source. */
  function endpointOf(text: string): { address: string; port: number } {
    const at = text.lastIndexOf(':');
    return { address: text.slice(0, at), port: Number(text.slice(at + 1)) };
  }

  /** The reach a request goes to: the internet's for a NET-… code, the LAN's for any other code or address. */
  function reachOf(request: JoinRequest): RoomReach {
    if (!('code' in request) || !looksLikeInternetCode(request.code)) return reaches.lan;
    if (!reaches.internet) throw new IpcError(IpcErrorCode.UNAVAILABLE, 'Internet rooms are off here.');
    return reaches.internet;
  }

  /** Joins the room a request names through its one reach (joinRoom.ts); the player can leave at any point. */
  async function join(request: JoinRequest, password: string | undefined): Promise<void> {
    const reach = reachOf(request);
    assertFree();
    const signal = restart();
    const joining = (target: RoomTarget, step?: JoinStep) =>
      setPhase({ kind: 'joining', target, ...(step ? { step } : {}) });
    let joined;
    try {
      joined = await joinRoom(reach, request, {
        password,
        appVersion: options.appVersion,
        timeoutSec: network.joinTimeoutSec,
        logger,
        scheduler: options.scheduler ?? systemScheduler,
        settings: options.settings,
        ...(options.joinGuest ? { joinGuest: options.joinGuest } : {}),
        signal,
        onTarget: joining,
      });
    } catch (error) {
      if (!signal.aborted && phase.kind !== 'idle') setPhase({ kind: 'idle' });
      throw error;
    }
    const { guest, located } = joined;
    const { target } = located;
    held = located;
    const code =
      located.internetCode !== undefined
        ? { internetCode: located.internetCode }
        : { shortCode: located.shortCode ?? null };
    setSession({ role: 'guest', guest });
    unsubscribe.push(guest.onState((state) => setPhase({ kind: 'guest', target, you: guest.you, state, ...code })));
    unsubscribe.push(
      guest.onEnd((end) => {
        if (session?.role !== 'guest' || session.guest !== guest) return;
        setSession(null);
        void release(); // logs its own failure
        setPhase({ kind: 'ended', end, target, you: guest.you, state: guest.state });
      }),
    );
    setPhase({ kind: 'guest', target, you: guest.you, state: guest.state, ...code });
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

  async function leave(): Promise<void> {
    restart();
    const current = session;
    instanceId = null;
    setSession(null);
    if (current?.role === 'host') await current.host.close();
    if (current?.role === 'guest') await current.guest.leave();
    await release();
    setPhase({ kind: 'idle' });
  }

  return {
    view: viewNow,
    onChange: (listener) => viewListeners.add(listener),
    host,
    joinByCode: async ({ code, password, probe: confirm = true }) => join({ code, confirm }, password),
    addresses: async () => reaches.lan.addresses((await options.settings()).hostInterface),
    joinByAddress: async ({ host: name, port, password }) => join({ host: name, port }, password),
    leave,
    setReady(ready) {
      const current = inRoom();
      if (current.role === 'host') current.host.setReady(ready);
      else current.guest.setReady(ready);
    },
    chat(text) {
      const current = inRoom();
      if (current.role === 'host') current.host.chat(text);
      else current.guest.chat(text);
    },
    kick(playerId) {
      const room = asHost('remove players');
      if (!room.kick(playerId)) {
        throw new IpcError(IpcErrorCode.NOT_FOUND, 'That player is no longer in the room.');
      }
    },
    start() {
      const room = asHost('start the round');
      // While a round is on (its results showing), starting is the results' "Play again": same players, same game.
      if (room.state.phase === 'playing') return room.playAgain();
      const blocker = startBlocker(room.state);
      if (blocker) throw new IpcError(IpcErrorCode.FAILED_PRECONDITION, blocker);
      room.startGame();
    },
    endRound() {
      asHost('end the round').endGame();
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
