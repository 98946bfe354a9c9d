import { randomBytes } from 'node:crypto';
import { Channel, Server, linkLost, type LanDiscoveryHandle, type Peer } from '../../net/index';
import { Listeners, reportCallbackError } from '../../base/listeners';
import { DEFAULT_GAME_ID, GAMES } from '../../../shared/games/registry';
import { roomCapacityRange } from '../../../shared/ipc/schemas/lobby';
import { canStart } from '../../../shared/lobby/lobbyReducer';
import { PlayerPath, createLobbyState, type LobbyState } from '../../../shared/lobby/lobbyState';
import { LobbyMessage, RejectReason, chatTextSchema, guestMessageSchemas } from '../../../shared/lobby/lobbyMessages';
import { ROOM_NAME_MAX } from '../../../shared/lobby/lobbyLimits';
import { lobbyColourOf } from '../../../shared/lobby/lobbyPalette';
import { hasVisibleText, normalizeText } from '../../../shared/text/normalizeText';
import { advertiseRoom, type LanAddress, type RoomCodes } from '../../reach/lan/index';
import { LOBBY_END_MESSAGES } from '../lobbyErrors';
import { backgroundScheduler, type Scheduler, type TimerHandle } from '../../base/scheduler';
import { DEFAULT_LOBBY_HOST_LIMITS, type LobbyHostStats } from './lobbyHostLimits';
import { SEAT_GRACE } from '../../../shared/ipc/schemas/lobby';
import {
  hostChannel,
  deriveRoomKey,
  freshSalt,
  startHostCheck,
  systemRandom,
  type HostPasswordCheck,
  type RoomKey,
} from '../passwordExchange';
import { lobbyTransportOptions, offersNative } from '../lobbyTransport';
import { roomNameFor } from './playerNames';
import { seatTransport, type SeatEvent, type SeatTransport } from '../../seats/seatTransport';
import { delivered, disconnectWhenDelivered } from './farewell';
import type { LobbyHostOptions } from './lobbyHostOptions';
import { systemWallClock } from '../../base/wallClock';
import { connectionId, sessionSecret } from '../resumeProof';
import { QUIET_CHECK_MS, quietAfterMs } from './quietLinks';
import {
  createRoom,
  nextWake,
  roomStep,
  type Arrival,
  type RoomEffect,
  type RoomInput,
  type RoomState,
} from './roomStep';

export type { LobbyHostOptions } from './lobbyHostOptions';

/** The binding of an internet guest's resume token: its path is authenticated, its address changes by nature. */
const INTERNET_BINDING = 'internet path';

/**
 * A room on this machine: the shell around the room's pure step (roomStep.ts). It binds the port, runs discovery,
 * makes the code, feeds the step what the transport hears with the one injected clock, and carries out what the
 * step decides: sends, password checks (the CPace half it keeps per challenge), drops and seat changes.
 */
export class LobbyHost {
  private room: RoomState;
  private readonly stateListeners = new Listeners<[LobbyState]>(reportCallbackError);
  private readonly seatListeners = new Listeners<[SeatEvent]>(reportCallbackError);
  /** The host's half of each open password challenge, by connection. */
  private readonly checks = new Map<number, HostPasswordCheck>();
  private readonly timers: TimerHandle[] = [];
  private wake: { at: number; timer: TimerHandle } | undefined;
  /** Acknowledgements arrive on the transport's clock: waiting for a goodbye's delivery is timed on it too. */
  private readonly transportClock: Scheduler;
  private closed = false;
  /** The transport as the game sees it: players by seat, whichever connection each sits on now. */
  readonly gameTransport: SeatTransport;

  private constructor(
    private readonly server: Server,
    private readonly options: LobbyHostOptions,
    private readonly roomKey: RoomKey | undefined,
    private readonly discovery: LanDiscoveryHandle | undefined,
    /** The codes players type to join: the full one and, when guests' networks can complete it, the short one. */
    readonly codes: RoomCodes,
    /** Addresses LAN players can use, with the port. */
    readonly addresses: LanAddress[],
    private readonly clock: Scheduler,
  ) {
    const game = GAMES.get(options.gameId ?? DEFAULT_GAME_ID);
    const lobby = createLobbyState(
      {
        roomName: options.roomName,
        gameId: game.id,
        capacity: options.capacity ?? roomCapacityRange(game).default,
        passwordProtected: roomKey !== undefined,
      },
      { name: options.playerName, colour: lobbyColourOf(options.colour) },
    );
    this.transportClock = options.transport?.scheduler ?? backgroundScheduler;
    const config = {
      limits: { ...DEFAULT_LOBBY_HOST_LIMITS, ...options.limits },
      passwordRoom: roomKey !== undefined,
      offersNative: offersNative(options),
      helloMs: (options.helloTimeout ?? 3) * 1000,
      graceMs: (options.seatGraceSec ?? SEAT_GRACE.DEFAULT) * 1000,
      quietAfterMs: quietAfterMs(options.transport?.heartbeatInterval),
      roomId: randomBytes(8).toString('hex'),
      ...(options.appVersion !== undefined ? { appVersion: options.appVersion } : {}),
    };
    this.room = createRoom(config, lobby, clock.now());
    this.gameTransport = seatTransport(server, {
      seatOf: (peerId) => this.room.seatOf.get(peerId),
      peerOf: (seat) => this.room.seats.get(seat)?.peer?.id,
      onChange: (listener) => this.seatListeners.add(listener),
    });
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
    const grace = options.seatGraceSec ?? SEAT_GRACE.DEFAULT;
    if (!(grace >= SEAT_GRACE.MIN && grace <= SEAT_GRACE.MAX))
      throw new RangeError(`the seat grace must be ${SEAT_GRACE.MIN}–${SEAT_GRACE.MAX} s, got ${grace}`);
    const limits = { ...DEFAULT_LOBBY_HOST_LIMITS, ...options.limits };
    if (!(Number.isInteger(limits.preLobbySlots) && limits.preLobbySlots >= 1))
      throw new RangeError('preLobbySlots must be ≥ 1');
    if (!(Number.isInteger(limits.silentPerSource) && limits.silentPerSource >= 1))
      throw new RangeError('silentPerSource must be ≥ 1');
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
    return (hostRef.host = new LobbyHost(server, resolved, roomKey, lan.discovery, lan.codes, lan.addresses, clock));
  }

  /** The full room code (gale.net's), what the reference decodes. */
  get code(): string {
    return this.codes.code;
  }

  /** The room's current state. */
  get state(): LobbyState {
    return this.room.lobby;
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

  /** What the room refused or dropped so far. */
  stats(): LobbyHostStats {
    const { counts, door } = this.room;
    return {
      pending: door.size,
      evicted: counts.evicted,
      expired: counts.expired,
      passwordChecks: counts.passwordChecks,
      rejected: { ...counts.rejected },
      droppedChat: counts.droppedChat,
      droppedReady: counts.droppedReady,
    };
  }

  /** Called with every new state. */
  onState(callback: (state: LobbyState) => void): () => void {
    return this.stateListeners.add(callback);
  }

  /** Sets the host's own ready flag. */
  setReady(ready: boolean): void {
    this.feed({ kind: 'host-ready', ready });
  }

  /** Posts a chat line as the host; throws on empty or over-long text. */
  chat(text: string): void {
    this.feed({ kind: 'host-chat', text: chatTextSchema.parse(text) });
  }

  /** Removes a guest (one whose seat waits for it, at once), telling them why. False for an unknown or host id. */
  kick(playerId: number): boolean {
    if (playerId === 0 || !this.room.seats.has(playerId)) return false;
    this.feed({ kind: 'kick', seat: playerId });
    return true;
  }

  /** Starts the game; throws with the reason when not everyone is ready. */
  startGame(): void {
    if (!canStart(this.room.lobby)) throw new Error('cannot start: need at least two players, all guests ready');
    this.feed({ kind: 'start' });
  }

  /** "Play again" from the results: the same game with the players still here, all readied as they were. */
  playAgain(): void {
    if (this.room.lobby.phase !== 'playing') throw new Error('cannot play again: no round was played');
    this.feed({ kind: 'play-again' });
  }

  /** Back to the lobby after a round. */
  endGame(): void {
    this.feed({ kind: 'end-round' });
  }

  /** Ends the room for everyone with a message, then closes the port and discovery. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.feed({ kind: 'close' });
    this.closed = true;
    for (const t of this.timers) this.clock.clearTimer(t);
    if (this.wake) this.clock.clearTimer(this.wake.timer);
    this.wake = undefined;
    this.checks.clear();
    this.seatListeners.clear();
    this.server.broadcast(
      LobbyMessage.CLOSING,
      { reason: RejectReason.HOST_CLOSED, message: LOBBY_END_MESSAGES['host-closed'] },
      { channel: Channel.RELIABLE_ORDERED },
    );
    await delivered(this.server.getPeers(), 500, this.transportClock);
    await this.server.close();
  }

  private listen(): void {
    const s = this.server;
    s.onConnect((peer) => this.feed({ kind: 'arrived', peer: this.arrival(peer) }));
    s.onDisconnect((peer) => {
      this.checks.delete(peer.id);
      // A link that went silent keeps its seat for the grace (the guest comes back by itself); a goodbye does not.
      this.feed({ kind: 'departed', peerId: peer.id, silent: linkLost(peer.departure), wallNow: this.wallNow() });
    });
    // A guest behind a NAT that rebinds (or on a new network) keeps its seat: worth a line when a session misbehaves.
    s.onMigrate((peer, from) => this.options.logger?.info(`peer ${peer.id} moved ${from} → ${peer.endpoint}`));
    s.onMessage(LobbyMessage.HELLO, (peer, payload) =>
      this.feed({
        kind: 'hello',
        peerId: peer.id,
        payload,
        fresh: randomBytes(16).toString('hex'),
        pingMs: this.pingOf(peer.id),
      }),
    );
    s.onMessage(LobbyMessage.PROOF, (peer, payload) => {
      // Taken once: a challenge answers one proof, so neither a retry nor a replay gets a second go with it.
      const check = this.checks.get(peer.id);
      if (!check) return;
      this.checks.delete(peer.id);
      const parsed = guestMessageSchemas[LobbyMessage.PROOF].safeParse(payload);
      const verdict = parsed.success ? check.check(parsed.data) : ({ ok: false, reason: 'malformed' } as const);
      this.feed({ kind: 'proof', peerId: peer.id, verdict, pingMs: this.pingOf(peer.id) });
    });
    s.onMessage(LobbyMessage.READY, (peer, payload) => this.feed({ kind: 'ready', peerId: peer.id, payload }));
    s.onMessage(LobbyMessage.CHAT, (peer, payload) => this.feed({ kind: 'chat', peerId: peer.id, payload }));
    const pings = () => this.feed({ kind: 'pings', pings: s.getPeers().map((p) => [p.id, this.pingOf(p.id)]) });
    const links = () =>
      this.feed({
        kind: 'links',
        samples: [...this.room.seatOf.keys()].flatMap((peerId) => {
          const peer = s.getPeer(peerId);
          return peer ? [{ peerId, received: peer.connection.counters.datagramsReceived }] : [];
        }),
      });
    this.timers.push(
      this.clock.setRepeating(pings, (this.options.pingInterval ?? 2) * 1000),
      this.clock.setRepeating(links, QUIET_CHECK_MS),
    );
  }

  /** How the door sees a connection: where limits key, what its resume token is bound to, how it came. */
  private arrival(peer: Peer): Arrival {
    const path = this.options.pathOf?.(peer) ?? PlayerPath.LAN;
    return {
      id: peer.id,
      source: this.options.sourceOf?.(peer) ?? peer.address,
      binding: path === PlayerPath.LAN ? peer.address : INTERNET_BINDING,
      protocol: peer.protocol,
      path,
      endpoint: peer.endpoint,
      connection: connectionId(peer.channelBinding, peer.token),
      secret: sessionSecret(peer.channelBinding, undefined),
    };
  }

  /** A connection's round trip in ms, null before it was measured. */
  private pingOf(peerId: number): number | null {
    const rtt = this.server.getRtt(peerId);
    return rtt === undefined ? null : rtt * 1000;
  }

  private wallNow(): number {
    return (this.options.wallClock ?? systemWallClock)();
  }

  /** One input through the room's step; its effects carried out, its one timer re-armed, listeners told. */
  private feed(input: RoomInput): void {
    if (this.closed) return;
    const { state, effects } = roomStep(this.room, input, this.clock.now());
    this.room = state;
    for (const effect of effects) this.carryOut(effect);
    this.arm();
  }

  private carryOut(effect: RoomEffect): void {
    const s = this.server;
    switch (effect.kind) {
      case 'send':
        s.sendTo(effect.peerId, effect.message.type, effect.message.payload as never, Channel.RELIABLE_ORDERED);
        return;
      case 'challenge': {
        const peer = s.getPeer(effect.peerId);
        if (!peer || !this.roomKey) return;
        // A fresh scalar and session id for every challenge, bound to this connection (its token, native keys,
        // protocol and whether it offered native, as this host saw it).
        const hello = this.room.door.get(peer.id)?.hello ?? {};
        const check = startHostCheck(this.roomKey, hostChannel(peer, hello), this.options.random ?? systemRandom);
        this.checks.set(peer.id, check);
        s.sendTo(peer.id, LobbyMessage.CHALLENGE, check.challenge, Channel.RELIABLE_ORDERED);
        return;
      }
      case 'drop':
        this.checks.delete(effect.peerId);
        // Waits on the clock, then disconnects: nothing in it rejects.
        if (effect.delivered) void disconnectWhenDelivered(s, effect.peerId, effect.reason, this.transportClock);
        else s.disconnect(effect.peerId, effect.reason);
        return;
      case 'seat':
        this.seatListeners.emit(effect);
        return;
      case 'log':
        this.options.logger?.warn(effect.text);
        return;
      case 'event':
        // Every state in turn, as the guests replay them: play again passes through the lobby on its way.
        this.stateListeners.emit(effect.lobby);
        return;
    }
  }

  /** Points the one timer at the room's next deadline. */
  private arm(): void {
    const at = nextWake(this.room);
    if (at === this.wake?.at) return;
    if (this.wake) this.clock.clearTimer(this.wake.timer);
    this.wake = undefined;
    if (at === undefined) return;
    const timer = this.clock.setTimer(
      () => {
        this.wake = undefined;
        this.feed({ kind: 'tick' });
      },
      Math.max(0, at - this.clock.now()),
    );
    this.wake = { at, timer };
  }
}
