import { Channel, Server, type EndpointOptions, type LanDiscoveryHandle, type Peer } from '../../net/index';
import type { LanDiscoveryOptions, NetworkInterfacesLike } from '../../net/discovery';
import { Listeners, reportCallbackError } from '../../base/listeners';
import type { Logger } from '../../base/logger';
import { DEFAULT_GAME_ID, GAMES } from '../../../shared/games/registry';
import { roomCapacityRange } from '../../../shared/ipc/schemas/lobby';
import { applyLobbyEvent, canStart } from '../../../shared/lobby/lobbyReducer';
import {
  HOST_PLAYER_ID,
  LOBBY_PROTOCOL_VERSION,
  PlayerPath,
  createLobbyState,
  type LobbyEvent,
  type LobbyState,
} from '../../../shared/lobby/lobbyState';
import {
  APP_VERSION_MAX,
  LobbyMessage,
  RejectReason,
  chatTextSchema,
  guestMessageSchemas,
  type GuestMessage,
  type HostMessages,
} from '../../../shared/lobby/lobbyMessages';
import { MAX_PING_MS, ROOM_NAME_MAX } from '../../../shared/lobby/lobbyLimits';
import { GUEST_PALETTE, lobbyColourOf } from '../../../shared/lobby/lobbyPalette';
import { hasVisibleText, normalizeText } from '../../../shared/text/normalizeText';
import { advertiseRoom, type LanAddress, type RoomCodes } from '../../reach/lan/index';
import { LOBBY_END_MESSAGES, tooManyTriesMessage } from '../lobbyErrors';
import { createRateLimiter, type RateLimiter } from '../../base/rateLimiter';
import { AdmissionDesk, type RoomKey } from './admissionDesk';
import { backgroundScheduler, type Scheduler } from '../../base/scheduler';
import { DEFAULT_LOBBY_HOST_LIMITS, type LobbyHostLimits, type LobbyHostStats } from './lobbyHostLimits';
import { PROOF_BYTES, deriveRoomKey, freshBytes } from '../passwordProof';
import { lobbyTransportOptions } from '../lobbyTransport';
import { roomNameFor } from './playerNames';
import { delivered, disconnectWhenDelivered } from './farewell';

/** Options of {@link LobbyHost.start}. */
export interface LobbyHostOptions {
  roomName: string;
  playerName: string;
  colour: string;
  /** The game the room plays (a registry id). Default DEFAULT_GAME_ID ('tag'). */
  gameId?: string;
  /** Players including the host, within the game's limits (tag: 2–16). Default 8, clamped to them. */
  capacity?: number;
  /**
   * The host's own seat is nobody (a dedicated host): the LAN advert then counts the guests only, so a
   * server list shows the same numbers as the host's banner and log. Default false.
   */
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
  /** Admission budgets and rate limits; unset fields keep {@link DEFAULT_LOBBY_HOST_LIMITS}. */
  limits?: Partial<LobbyHostLimits>;
  /** Where the room notes what a player cannot see (a guest's connection moving to a new address). Default silent. */
  logger?: Logger;
  /** Time and timers for deadlines and limits; default the real ones. */
  clock?: Scheduler;
  /** How each guest reaches this host (shown beside its ping); default every guest is on the LAN. */
  pathOf?: (peer: Peer) => PlayerPath;
  transport?: Omit<EndpointOptions, 'drive'>;
}

/** A room on this machine: the transport server, discovery, room code and the authoritative lobby state. */
export class LobbyHost {
  private stateValue: LobbyState;
  private readonly joined = new Set<number>();
  private readonly stateListeners = new Listeners<[LobbyState]>(reportCallbackError);
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly door: AdmissionDesk;
  private readonly chatLimiter: RateLimiter<number>;
  private readonly readyLimiter: RateLimiter<number>;
  private readonly rejected: Record<string, number> = {};
  private nextChatId = 1;
  private closed = false;

  private constructor(
    private readonly server: Server,
    private readonly options: LobbyHostOptions,
    roomKey: RoomKey | undefined,
    private readonly discovery: LanDiscoveryHandle | undefined,
    /** The codes players type to join: the full one and, when guests' networks can complete it, the short one. */
    readonly codes: RoomCodes,
    /** Addresses LAN players can use, with the port. */
    readonly addresses: LanAddress[],
    limits: LobbyHostLimits,
    clock: Scheduler,
  ) {
    const game = GAMES.get(options.gameId ?? DEFAULT_GAME_ID);
    this.stateValue = createLobbyState(
      {
        roomName: options.roomName,
        gameId: game.id,
        capacity: options.capacity ?? roomCapacityRange(game).default,
        passwordProtected: roomKey !== undefined,
      },
      { name: options.playerName, colour: lobbyColourOf(options.colour) },
    );
    const now = () => clock.now();
    this.door = new AdmissionDesk({
      roomKey,
      limits,
      deadlineSec: options.helloTimeout ?? 3,
      clock,
      refusal: () => this.roomRefusal(),
      admit: (peer, hello) => this.admit(peer, hello),
      reject: (peer, reason, retryAfterSec) => this.reject(peer, reason, retryAfterSec),
      sendChallenge: (peerId, challenge) => this.send(peerId, LobbyMessage.CHALLENGE, challenge),
      disconnect: (peerId, reason) => this.server.disconnect(peerId, reason),
    });
    this.chatLimiter = createRateLimiter<number>(limits.chat, { now });
    this.readyLimiter = createRateLimiter<number>(limits.ready, { now });
    this.listen();
  }

  /** Opens the room: binds the port, starts discovery, makes the code. Rejects with a clear error (e.g. a busy port). */
  static async start(options: LobbyHostOptions): Promise<LobbyHost> {
    // Throws UnknownGameError, naming the id, for a game this build does not have.
    const game = GAMES.get(options.gameId ?? DEFAULT_GAME_ID);
    const range = roomCapacityRange(game);
    const capacity = options.capacity ?? range.default;
    if (!Number.isInteger(capacity) || capacity < range.min || capacity > range.max)
      throw new RangeError(`capacity must be ${range.min}–${range.max} players for ${game.name}`);
    const roomName = [...normalizeText(options.roomName)].slice(0, ROOM_NAME_MAX).join('').trim();
    if (!hasVisibleText(roomName)) throw new RangeError('the room name shows nothing');
    const host = roomNameFor(options.playerName, []);
    if (!host.ok) throw new RangeError('the host’s name shows nothing');
    const limits = { ...DEFAULT_LOBBY_HOST_LIMITS, ...options.limits };
    const clock = options.clock ?? backgroundScheduler;
    // Derived once: guests prove they know the password with an HMAC over a fresh nonce, keyed by this.
    const salt = freshBytes(PROOF_BYTES.salt);
    const roomKey = options.password ? { key: await deriveRoomKey(options.password, salt), salt } : undefined;
    // Pre-lobby peers have slots of their own beyond the room's, so silent connections never lock a player out.
    const server = await Server.listen({
      ...lobbyTransportOptions(options.transport),
      port: options.port ?? 0,
      host: options.bindAddress ?? '0.0.0.0',
      maxPeers: capacity + limits.preLobbySlots,
    });
    const hostRef: { host?: LobbyHost } = {};
    // Players in the room, the host's own seat included (transport peers leave the host out) unless it is a
    // dedicated host's, which nobody plays in.
    const hostSeat = options.dedicated ? 1 : 0;
    let lan;
    try {
      lan = await advertiseRoom(server, options.discovery ?? {}, {
        roomName,
        capacity: capacity - hostSeat,
        passwordProtected: Boolean(options.password),
        gameName: `LAN Party ${game.name}`,
        ...(options.appVersion !== undefined ? { appVersion: options.appVersion } : {}),
        ...(options.dedicated ? {} : { hostName: host.name }),
        playerCount: () => (hostRef.host?.state.players.length ?? 1) - hostSeat,
        inRound: () => hostRef.host?.state.phase === 'playing',
        ...(options.advertiseAddress !== undefined ? { advertiseAddress: options.advertiseAddress } : {}),
        ...(options.networkInterfaces ? { networkInterfaces: options.networkInterfaces } : {}),
      });
    } catch (error) {
      await server.close();
      throw error;
    }
    const resolved = { ...options, roomName, playerName: host.name, capacity };
    return (hostRef.host = new LobbyHost(
      server,
      resolved,
      roomKey,
      lan.discovery,
      lan.codes,
      lan.addresses,
      limits,
      clock,
    ));
  }

  /** The full room code (gale.net's), what the reference decodes. */
  get code(): string {
    return this.codes.code;
  }

  /** The room's current state. */
  get state(): LobbyState {
    return this.stateValue;
  }

  /** The bound game port. */
  get port(): number {
    return this.server.port;
  }

  /** The discovery port, if discovery is on. */
  get discoveryPort(): number | undefined {
    return this.discovery?.port;
  }

  /** The transport server, for the game to share. */
  get transport(): Server {
    return this.server;
  }

  /** What the room refused or dropped so far. */
  stats(): LobbyHostStats {
    return {
      pending: this.door.waiting,
      ...this.door.counts,
      rejected: { ...this.rejected },
      droppedChat: this.chatLimiter.refused,
      droppedReady: this.readyLimiter.refused,
    };
  }

  /** Called with every new state. */
  onState(callback: (state: LobbyState) => void): () => void {
    return this.stateListeners.add(callback);
  }

  /** Sets the host's own ready flag. */
  setReady(ready: boolean): void {
    this.apply({ kind: 'ready', playerId: HOST_PLAYER_ID, ready });
  }

  /** Posts a chat line as the host; throws on empty or over-long text. */
  chat(text: string): void {
    this.postChat(HOST_PLAYER_ID, chatTextSchema.parse(text));
  }

  /** Removes a guest, telling them why. Returns false for an unknown or host id. */
  kick(playerId: number): boolean {
    if (playerId === HOST_PLAYER_ID || !this.joined.has(playerId)) return false;
    this.joined.delete(playerId);
    this.send(playerId, LobbyMessage.CLOSING, { reason: RejectReason.KICKED, message: LOBBY_END_MESSAGES.kicked });
    this.apply({ kind: 'left', playerId, reason: 'kicked' });
    void disconnectWhenDelivered(this.server, playerId, 'kicked');
    return true;
  }

  /** Starts the game; throws with the reason when not everyone is ready. */
  startGame(): void {
    if (!canStart(this.stateValue)) throw new Error('cannot start: need at least two players, all guests ready');
    this.apply({ kind: 'phase', phase: 'playing' });
  }

  /** Back to the lobby after a round. */
  endGame(): void {
    if (this.stateValue.phase === 'playing') this.apply({ kind: 'phase', phase: 'lobby' });
  }

  /** Ends the room for everyone with a message, then closes the port and discovery. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    this.door.close();
    this.server.broadcast(
      LobbyMessage.CLOSING,
      { reason: RejectReason.HOST_CLOSED, message: LOBBY_END_MESSAGES['host-closed'] },
      { channel: Channel.RELIABLE_ORDERED },
    );
    await delivered(this.server.getPeers(), 500);
    await this.server.close();
  }

  private listen(): void {
    const s = this.server;
    s.onConnect((peer) => this.arrived(peer));
    s.onDisconnect((peer, reason) => this.departed(peer, reason));
    // A guest behind a NAT that rebinds (or on a new network) keeps its seat: worth a line when a session misbehaves.
    s.onMigrate((peer, from) => this.options.logger?.info(`peer ${peer.id} moved ${from} → ${peer.endpoint}`));
    s.onMessage(LobbyMessage.HELLO, (peer, payload) => {
      if (!this.closed) this.door.hello(peer, payload);
    });
    s.onMessage(LobbyMessage.PROOF, (peer, payload) => {
      if (!this.closed) this.door.proof(peer, payload);
    });
    // Rate limits come before parsing, so a flood costs a counter bump per message and nothing more.
    s.onMessage(LobbyMessage.READY, (peer, payload) => {
      if (!this.joined.has(peer.id) || !this.readyLimiter.allow(peer.id)) return;
      const parsed = guestMessageSchemas[LobbyMessage.READY].safeParse(payload);
      if (parsed.success) this.apply({ kind: 'ready', playerId: peer.id, ready: parsed.data.ready });
    });
    s.onMessage(LobbyMessage.CHAT, (peer, payload) => {
      if (!this.joined.has(peer.id) || !this.chatLimiter.allow(peer.id)) return;
      const parsed = guestMessageSchemas[LobbyMessage.CHAT].safeParse(payload);
      if (parsed.success) this.postChat(peer.id, parsed.data.text);
    });
    const ping = setInterval(() => this.broadcastPings(), (this.options.pingInterval ?? 2) * 1000);
    ping.unref();
    this.timers.push(ping);
  }

  private arrived(peer: Peer): void {
    if (!this.closed) this.door.arrived(peer);
  }

  private departed(peer: Peer, reason: string): void {
    this.door.forget(peer.id);
    this.chatLimiter.forget(peer.id);
    this.readyLimiter.forget(peer.id);
    if (!this.joined.delete(peer.id)) return;
    this.apply({
      kind: 'left',
      playerId: peer.id,
      reason: /timed out|not acknowledged/.test(reason) ? 'timed-out' : 'left',
    });
  }

  /** Why nobody can join right now, or undefined. Silent and pending peers never count: only players do. */
  private roomRefusal(): RejectReason | undefined {
    if (this.stateValue.phase !== 'lobby') return RejectReason.IN_GAME;
    if (this.stateValue.players.length >= this.stateValue.capacity) return RejectReason.FULL;
    return undefined;
  }

  private admit(peer: Peer, hello: GuestMessage<'lobby.hello'>): void {
    const name = roomNameFor(
      hello.name,
      this.stateValue.players.map((p) => p.name),
    );
    if (!name.ok) return this.reject(peer, RejectReason.INVALID_NAME);
    this.joined.add(peer.id);
    const pingMs = peer.rtt === undefined ? null : Math.min(MAX_PING_MS, Math.round(peer.rtt * 1000));
    const colour = lobbyColourOf(hello.colour, GUEST_PALETTE);
    const path = this.options.pathOf?.(peer) ?? PlayerPath.LAN;
    this.apply(
      { kind: 'joined', player: { id: peer.id, name: name.name, colour, ready: false, host: false, pingMs, path } },
      peer.id,
    );
    this.send(peer.id, LobbyMessage.WELCOME, { you: peer.id, state: this.stateValue });
  }

  /** With a version refusal, the host's app version and lobby protocol, so the guest can say who must update. */
  private versionsFor(reason: RejectReason): { hostProtocol?: number; hostApp?: string } {
    if (reason !== RejectReason.VERSION_MISMATCH) return {};
    const { appVersion } = this.options;
    return {
      hostProtocol: LOBBY_PROTOCOL_VERSION,
      ...(appVersion ? { hostApp: appVersion.slice(0, APP_VERSION_MAX) } : {}),
    };
  }

  private reject(peer: Peer, reason: RejectReason, retryAfterSec?: number): void {
    this.rejected[reason] = (this.rejected[reason] ?? 0) + 1;
    this.door.refused(peer.id);
    this.send(
      peer.id,
      LobbyMessage.REJECTED,
      retryAfterSec === undefined
        ? { reason, message: LOBBY_END_MESSAGES[reason], ...this.versionsFor(reason) }
        : { reason, message: tooManyTriesMessage(retryAfterSec), retryAfterSec },
    );
    void disconnectWhenDelivered(this.server, peer.id, reason);
  }

  private postChat(from: number, text: string): void {
    const name = this.stateValue.players.find((p) => p.id === from)?.name ?? '?';
    this.apply({ kind: 'chat', line: { id: this.nextChatId++, from, name, text } });
  }

  private broadcastPings(): void {
    const pings: Array<[number, number | null]> = [...this.joined].map((id) => {
      const rtt = this.server.getRtt(id);
      return [id, rtt === undefined ? null : Math.min(MAX_PING_MS, Math.round(rtt * 1000))];
    });
    if (pings.length > 0) this.apply({ kind: 'pings', pings });
  }

  /** Applies an event locally and sends it to every joined guest except `skip` (who gets a welcome instead). */
  private apply(event: LobbyEvent, skip?: number): void {
    this.stateValue = applyLobbyEvent(this.stateValue, event);
    for (const id of this.joined) {
      if (id !== skip) this.send(id, LobbyMessage.EVENT, { event, revision: this.stateValue.revision });
    }
    this.stateListeners.emit(this.stateValue);
  }

  private send<K extends keyof HostMessages>(peerId: number, type: K, payload: HostMessages[K]): void {
    this.server.sendTo(peerId, type, payload as never, Channel.RELIABLE_ORDERED);
  }
}
