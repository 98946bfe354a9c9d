import { networkInterfaces } from 'node:os';
import { Channel, Server, type EndpointOptions, type LanDiscoveryHandle, type Peer } from '../net/index';
import type { LanDiscoveryOptions, NetworkInterfacesLike } from '../net/discovery';
import { Listeners, reportCallbackError } from '../base/listeners';
import { encode } from '../../shared/roomCode';
import { applyLobbyEvent, canStart } from '../../shared/lobby/lobbyReducer';
import {
  HOST_PLAYER_ID,
  LOBBY_PROTOCOL_VERSION,
  createLobbyState,
  type LobbyEvent,
  type LobbyState,
} from '../../shared/lobby/lobbyState';
import {
  LobbyMessage,
  RejectReason,
  chatTextSchema,
  guestMessageSchemas,
  type HostMessages,
} from '../../shared/lobby/lobbyMessages';
import { lanAddresses, pickAdvertiseAddress, type LanAddress } from './lanAddresses';
import { passwordMatches } from './passwordCheck';
import { LOBBY_END_MESSAGES } from './lobbyErrors';

/** Options of {@link LobbyHost.start}. */
export interface LobbyHostOptions {
  roomName: string;
  playerName: string;
  colour: string;
  /** Players including the host, 2–16. Default 8. */
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
  /** Seconds a connected peer may take to say hello. Default 10. */
  helloTimeout?: number;
  /** Seconds between ping broadcasts. Default 2. */
  pingInterval?: number;
  transport?: Omit<EndpointOptions, 'drive'>;
}

/** A room on this machine: the transport server, discovery, room code and the authoritative lobby state. */
export class LobbyHost {
  private stateValue: LobbyState;
  private readonly joined = new Set<number>();
  private readonly stateListeners = new Listeners<[LobbyState]>(reportCallbackError);
  private readonly timers: NodeJS.Timeout[] = [];
  private nextChatId = 1;
  private closed = false;

  private constructor(
    private readonly server: Server,
    private readonly options: LobbyHostOptions,
    private readonly discovery: LanDiscoveryHandle | undefined,
    /** The room code players type to join. */
    readonly code: string,
    /** Addresses LAN players can use, with the port. */
    readonly addresses: LanAddress[],
  ) {
    this.stateValue = createLobbyState(
      { roomName: options.roomName, capacity: options.capacity ?? 8, passwordProtected: Boolean(options.password) },
      { name: options.playerName, colour: options.colour },
    );
    this.listen();
  }

  /** Opens the room: binds the port, starts discovery, makes the code. Rejects with a clear error (e.g. a busy port). */
  static async start(options: LobbyHostOptions): Promise<LobbyHost> {
    const capacity = options.capacity ?? 8;
    if (!Number.isInteger(capacity) || capacity < 2 || capacity > 16)
      throw new RangeError('capacity must be 2–16 players');
    // A few spare transport slots so players beyond capacity hear "room full" instead of a timeout.
    const server = await Server.listen({
      ...options.transport,
      port: options.port ?? 0,
      host: options.bindAddress ?? '0.0.0.0',
      maxPeers: capacity + 3,
    });
    let discovery: LanDiscoveryHandle | undefined;
    const hostRef: { host?: LobbyHost } = {};
    try {
      if (options.discovery !== false) {
        // Players in the room, the host's own seat included (transport peers leave the host out) unless it
        // is a dedicated host's, which nobody plays in.
        const hostSeat = options.dedicated ? 1 : 0;
        const advertised = capacity - hostSeat;
        discovery = await server.enableLanDiscovery(options.roomName, {
          ...options.discovery,
          getPlayerCount: () => (hostRef.host?.state.players.length ?? 1) - hostSeat,
          getExtraInfo: () => ({
            capacity: advertised,
            passwordProtected: Boolean(options.password),
            gameName: 'LAN Party Tag',
          }),
        });
      }
    } catch (error) {
      await server.close();
      throw error;
    }
    const interfaces = (options.networkInterfaces ?? networkInterfaces)();
    const advertise = options.advertiseAddress ?? pickAdvertiseAddress(interfaces);
    const code = encode(advertise, server.port);
    return (hostRef.host = new LobbyHost(server, options, discovery, code, lanAddresses(interfaces)));
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
    void this.disconnectWhenDelivered(playerId, 'kicked');
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
    this.server.broadcast(
      LobbyMessage.CLOSING,
      { reason: RejectReason.HOST_CLOSED, message: LOBBY_END_MESSAGES['host-closed'] },
      { channel: Channel.RELIABLE_ORDERED },
    );
    await this.delivered(this.server.getPeers(), 500);
    await this.server.close();
  }

  private listen(): void {
    const s = this.server;
    s.onConnect((peer) => {
      const t = setTimeout(
        () => {
          if (!this.joined.has(peer.id)) s.disconnect(peer.id, 'no hello');
        },
        (this.options.helloTimeout ?? 10) * 1000,
      );
      t.unref();
    });
    s.onDisconnect((peer, reason) => {
      if (!this.joined.delete(peer.id)) return;
      this.apply({
        kind: 'left',
        playerId: peer.id,
        reason: /timed out|not acknowledged/.test(reason) ? 'timed-out' : 'left',
      });
    });
    s.onMessage(LobbyMessage.HELLO, (peer, payload) => this.hello(peer, payload));
    s.onMessage(LobbyMessage.READY, (peer, payload) => {
      const parsed = guestMessageSchemas[LobbyMessage.READY].safeParse(payload);
      if (parsed.success && this.joined.has(peer.id))
        this.apply({ kind: 'ready', playerId: peer.id, ready: parsed.data.ready });
    });
    s.onMessage(LobbyMessage.CHAT, (peer, payload) => {
      const parsed = guestMessageSchemas[LobbyMessage.CHAT].safeParse(payload);
      if (parsed.success && this.joined.has(peer.id)) this.postChat(peer.id, parsed.data.text);
    });
    const ping = setInterval(() => this.broadcastPings(), (this.options.pingInterval ?? 2) * 1000);
    ping.unref();
    this.timers.push(ping);
  }

  private hello(peer: Peer, payload: unknown): void {
    if (this.joined.has(peer.id) || this.closed) return;
    const parsed = guestMessageSchemas[LobbyMessage.HELLO].safeParse(payload);
    if (!parsed.success) return this.reject(peer, RejectReason.VERSION_MISMATCH);
    const hello = parsed.data;
    if (hello.v !== LOBBY_PROTOCOL_VERSION) return this.reject(peer, RejectReason.VERSION_MISMATCH);
    if (!passwordMatches(this.options.password, hello.password)) return this.reject(peer, RejectReason.WRONG_PASSWORD);
    if (this.stateValue.phase !== 'lobby') return this.reject(peer, RejectReason.IN_GAME);
    if (this.stateValue.players.length >= this.stateValue.capacity) return this.reject(peer, RejectReason.FULL);
    this.joined.add(peer.id);
    const pingMs = peer.rtt === undefined ? null : Math.round(peer.rtt * 1000);
    this.apply(
      {
        kind: 'joined',
        player: { id: peer.id, name: hello.name, colour: hello.colour, ready: false, host: false, pingMs },
      },
      peer.id,
    );
    this.send(peer.id, LobbyMessage.WELCOME, { you: peer.id, state: this.stateValue });
  }

  private reject(peer: Peer, reason: RejectReason): void {
    const message = LOBBY_END_MESSAGES[reason];
    this.send(peer.id, LobbyMessage.REJECTED, { reason, message });
    void this.disconnectWhenDelivered(peer.id, reason);
  }

  private postChat(from: number, text: string): void {
    const name = this.stateValue.players.find((p) => p.id === from)?.name ?? '?';
    this.apply({ kind: 'chat', line: { id: this.nextChatId++, from, name, text } });
  }

  private broadcastPings(): void {
    const pings: Array<[number, number | null]> = [...this.joined].map((id) => {
      const rtt = this.server.getRtt(id);
      return [id, rtt === undefined ? null : Math.round(rtt * 1000)];
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

  private async disconnectWhenDelivered(peerId: number, reason: string): Promise<void> {
    const peer = this.server.getPeer(peerId);
    if (!peer) return;
    await this.delivered([peer], 1000);
    this.server.disconnect(peerId, reason);
  }

  private async delivered(peers: Peer[], maxMs: number): Promise<void> {
    const until = Date.now() + maxMs;
    while (Date.now() < until && peers.some((p) => p.connection.pendingReliable > 0 && !p.connection.closed)) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
