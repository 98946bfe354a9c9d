import { Channel, Server, type LanDiscoveryHandle, type Peer } from '../../net/index';
import { Listeners, reportCallbackError } from '../../base/listeners';
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
} from '../../../shared/lobby/lobbyMessages';
import { ROOM_NAME_MAX } from '../../../shared/lobby/lobbyLimits';
import { GUEST_PALETTE, lobbyColourOf } from '../../../shared/lobby/lobbyPalette';
import { hasVisibleText, normalizeText } from '../../../shared/text/normalizeText';
import { advertiseRoom, type LanAddress, type RoomCodes } from '../../reach/lan/index';
import { LOBBY_END_MESSAGES, tooManyTriesNotice } from '../lobbyErrors';
import { createRateLimiter, type RateLimiter } from '../../base/rateLimiter';
import { AdmissionDesk, type RoomKey } from './admissionDesk';
import { backgroundScheduler, type Scheduler } from '../../base/scheduler';
import { DEFAULT_LOBBY_HOST_LIMITS, type LobbyHostLimits, type LobbyHostStats } from './lobbyHostLimits';
import { deriveRoomKey, freshSalt } from '../passwordExchange';
import { lobbyTransportOptions, offersNative } from '../lobbyTransport';
import { fellBackToV1, v1FallbackWarning } from './v1Fallback';
import { roomNameFor } from './playerNames';
import { SeatedRoom } from '../../seats/seatedRoom';
import type { SeatTransport } from '../../seats/seatTransport';
import { delivered, disconnectWhenDelivered } from './farewell';
import type { LobbyHostOptions } from './lobbyHostOptions';
import { QUIET_CHECK_MS, QuietLinks, linkSamples, quietAfterMs } from './quietLinks';

export type { LobbyHostOptions } from './lobbyHostOptions';

/** A room on this machine: the transport server, discovery, room code and the authoritative lobby state. */
export class LobbyHost {
  private stateValue: LobbyState;
  /** The players' seats (a seat's id is the player id) and the connection each sits on now. */
  private readonly seats: SeatedRoom;
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
    private readonly clock: Scheduler,
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
    this.seats = new SeatedRoom({
      server,
      clock,
      wallClock: options.wallClock ?? Date.now,
      ...(options.seatGraceSec !== undefined ? { graceSec: options.seatGraceSec } : {}),
      state: () => this.stateValue,
      apply: (event, skip) => this.apply(event, skip),
      pathOf: (peer) => options.pathOf?.(peer) ?? PlayerPath.LAN,
      refused: (peer, reason) => this.refused(peer, reason),
      forget: (seat) => {
        this.chatLimiter.forget(seat);
        this.readyLimiter.forget(seat);
      },
    });
    this.door = new AdmissionDesk({
      roomKey,
      limits,
      deadlineSec: options.helloTimeout ?? 3,
      clock,
      ...(options.random ? { random: options.random } : {}),
      refusal: () => this.roomRefusal(),
      admit: (peer, hello, confirm) => this.admit(peer, hello, confirm),
      resume: (peer, hello) => this.seats.resume(peer, hello.resume),
      reject: (peer, reason, retryAfterMs) => this.reject(peer, reason, retryAfterMs),
      sendChallenge: (peerId, challenge) => this.seats.sendTo(peerId, LobbyMessage.CHALLENGE, challenge),
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
    // Derived once, and the password let go: it is the PRS of every guest's CPace exchange (passwordExchange.ts).
    const salt = freshSalt();
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

  /** The transport server (every connection, players' and those still at the door). */
  get transport(): Server {
    return this.server;
  }

  /** The transport as the game sees it: players by seat, whichever connection each sits on now. */
  get gameTransport(): SeatTransport {
    return this.seats.gameTransport;
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

  /** Removes a guest (one whose seat waits for it, at once), telling them why. False for an unknown or host id. */
  kick(playerId: number): boolean {
    if (playerId === HOST_PLAYER_ID || !this.seats.has(playerId)) return false;
    this.seats.send(playerId, LobbyMessage.CLOSING, {
      reason: RejectReason.KICKED,
      message: LOBBY_END_MESSAGES.kicked,
    });
    const { peerId } = this.seats.release(playerId);
    if (peerId !== undefined) void disconnectWhenDelivered(this.server, peerId, 'kicked');
    return true;
  }

  /** Starts the game; throws with the reason when not everyone is ready. */
  startGame(): void {
    if (!canStart(this.stateValue)) throw new Error('cannot start: need at least two players, all guests ready');
    this.apply({ kind: 'phase', phase: 'playing' });
  }

  /** "Play again" from the results: the same game with the players still here, all readied as they were. */
  playAgain(): void {
    if (this.stateValue.phase !== 'playing') throw new Error('cannot play again: no round was played');
    this.apply({ kind: 'phase', phase: 'lobby' });
    for (const p of this.stateValue.players) if (!p.host) this.apply({ kind: 'ready', playerId: p.id, ready: true });
    this.startGame();
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
    this.seats.close();
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
      const seat = this.seats.seatOf(peer.id);
      if (seat === undefined || !this.readyLimiter.allow(seat)) return;
      const parsed = guestMessageSchemas[LobbyMessage.READY].safeParse(payload);
      if (parsed.success) this.apply({ kind: 'ready', playerId: seat, ready: parsed.data.ready });
    });
    s.onMessage(LobbyMessage.CHAT, (peer, payload) => {
      const seat = this.seats.seatOf(peer.id);
      if (seat === undefined || !this.chatLimiter.allow(seat)) return;
      const parsed = guestMessageSchemas[LobbyMessage.CHAT].safeParse(payload);
      if (parsed.success) this.postChat(seat, parsed.data.text);
    });
    const ping = setInterval(() => this.broadcastPings(), (this.options.pingInterval ?? 2) * 1000);
    ping.unref();
    const quiet = new QuietLinks(quietAfterMs(this.options.transport?.heartbeatInterval));
    const check = setInterval(() => this.markQuiet(quiet), QUIET_CHECK_MS);
    check.unref();
    this.timers.push(ping, check);
  }

  /** Shows a guest not heard for a moment as "reconnecting…" (no countdown: a held seat shows its own). */
  private markQuiet(quiet: QuietLinks): void {
    for (const { seat, quiet: on } of quiet.check(this.clock.now(), linkSamples(this.server, this.seats.seats))) {
      const player = this.stateValue.players.find((p) => p.id === seat);
      if (!player || Boolean(player.linkQuiet) === on) continue;
      const { linkQuiet: _was, ...rest } = player;
      this.apply({ kind: 'joined', player: on ? { ...rest, linkQuiet: true } : rest });
    }
  }

  private arrived(peer: Peer): void {
    if (!this.closed) this.door.arrived(peer);
  }

  private departed(peer: Peer, reason: string): void {
    this.door.forget(peer.id);
    // A link that went silent keeps its seat for the grace (the guest comes back by itself); a goodbye does not.
    if (!this.closed) this.seats.departed(peer, reason);
  }

  /** Why nobody can join right now, or undefined. Silent and pending peers never count: only players do. */
  private roomRefusal(): RejectReason | undefined {
    if (this.stateValue.phase !== 'lobby') return RejectReason.IN_GAME;
    if (this.stateValue.players.length >= this.stateValue.capacity) return RejectReason.FULL;
    return undefined;
  }

  private admit(peer: Peer, hello: GuestMessage<'lobby.hello'>, confirm?: string): void {
    const name = roomNameFor(
      hello.name,
      this.stateValue.players.map((p) => p.name),
    );
    if (!name.ok) return this.reject(peer, RejectReason.INVALID_NAME);
    // The seat takes the first connection's id: the player keeps it on every later connection.
    const seat = this.seats.seat(peer);
    const pingMs = this.seats.pingOf(peer.id);
    const colour = lobbyColourOf(hello.colour, GUEST_PALETTE);
    const path = this.options.pathOf?.(peer) ?? PlayerPath.LAN;
    const fellBack = fellBackToV1(offersNative(this.options), hello, peer.protocol, path);
    if (fellBack) this.options.logger?.warn(v1FallbackWarning(name.name, peer.endpoint));
    const player = { id: peer.id, name: name.name, colour, ready: false, host: false, pingMs, path };
    this.apply({ kind: 'joined', player: fellBack ? { ...player, fellBackToV1: true } : player }, peer.id);
    const proof = confirm !== undefined ? { confirm } : {};
    this.seats.send(peer.id, LobbyMessage.WELCOME, { you: peer.id, state: this.stateValue, ...seat, ...proof });
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

  private reject(peer: Peer, reason: RejectReason, retryAfterMs?: number): void {
    this.seats.sendTo(
      peer.id,
      LobbyMessage.REJECTED,
      retryAfterMs === undefined
        ? { reason, message: LOBBY_END_MESSAGES[reason], ...this.versionsFor(reason) }
        : tooManyTriesNotice(retryAfterMs),
    );
    this.refused(peer, reason);
  }

  /** A refusal already sent: counted, the door's slot freed, the peer let go once it is delivered. */
  private refused(peer: Peer, reason: RejectReason): void {
    this.rejected[reason] = (this.rejected[reason] ?? 0) + 1;
    this.door.refused(peer.id);
    void disconnectWhenDelivered(this.server, peer.id, reason);
  }

  private postChat(from: number, text: string): void {
    const name = this.stateValue.players.find((p) => p.id === from)?.name ?? '?';
    this.apply({ kind: 'chat', line: { id: this.nextChatId++, from, name, text } });
  }

  private broadcastPings(): void {
    const pings = this.seats.pings();
    if (pings.length > 0) this.apply({ kind: 'pings', pings });
  }

  /** Applies an event locally and sends it to every seated guest except `skip` (who gets a welcome instead). */
  private apply(event: LobbyEvent, skip?: number): void {
    this.stateValue = applyLobbyEvent(this.stateValue, event);
    for (const seat of this.seats.seats.seats) {
      if (seat !== skip) this.seats.send(seat, LobbyMessage.EVENT, { event, revision: this.stateValue.revision });
    }
    this.stateListeners.emit(this.stateValue);
  }
}
