import {
  createRoom,
  nextWake,
  roomStep,
  type Arrival,
  type RoomConfig,
  type RoomEffect,
  type RoomInput,
  type RoomState,
} from '../../../../main/lobby/host/roomStep';
import { DEFAULT_LOBBY_HOST_LIMITS } from '../../../../main/lobby/host/lobbyHostLimits';
import { LOBBY_PROTOCOL_VERSION, PlayerPath, createLobbyState } from '../../../../shared/lobby/lobbyState';
import type { SeatEvent, SeatMap } from '../../../../main/seats/seatTransport';
import { resumeKey, resumeProof } from '../../../../main/lobby/resumeProof';

/** The room id every kit room has (hex, 8 bytes). */
export const ROOM_ID = '0123456789abcdef';

/** A LAN connection from `source` (its IP), on the native path. */
export function lanPeer(id: number, source = `10.0.0.${id}`, extra: Partial<Arrival> = {}): Arrival {
  return {
    id,
    source,
    binding: source,
    protocol: 'native',
    path: PlayerPath.LAN,
    endpoint: `${source}:5000`,
    // Each connection's own id and native binding (its session's secret), as the transport derives them.
    connection: id.toString(16).padStart(64, 'c'),
    secret: id.toString(16).padStart(64, '5'),
    ...(extra as object),
  } as Arrival;
}

/** A hello as a guest of this version sends it. */
export function hello(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { v: LOBBY_PROTOCOL_VERSION, name, colour: '#3a86ff', ...extra };
}

/** A fresh resume secret (hex), different for each `n`. */
export const fresh = (n: number): string => n.toString(16).padStart(32, '0');

/**
 * A room's pure step driven by hand: a clock in ms, every input fed and every effect kept, and the seat map the
 * game's transport reads, with its change listeners.
 */
export class RoomKit {
  state: RoomState;
  now = 1000;
  readonly effects: RoomEffect[] = [];
  private readonly seatListeners = new Set<(event: SeatEvent) => void>();
  private secrets = 1;
  /** What honest guests know, kept the guest's way: each connection's session secret and ISK, each seat's key. */
  private readonly arrivals = new Map<number, Arrival>();
  private readonly isks = new Map<number, string>();
  private readonly keys = new Map<number, string>();

  constructor(config: Partial<RoomConfig> = {}, capacity = 8) {
    const lobby = createLobbyState(
      { roomName: 'Room', capacity, passwordProtected: config.passwordRoom ?? false },
      { name: 'Host', colour: '#5b8cff' },
    );
    this.state = createRoom(
      {
        limits: DEFAULT_LOBBY_HOST_LIMITS,
        passwordRoom: false,
        offersNative: true,
        helloMs: 3000,
        graceMs: 30_000,
        quietAfterMs: 2500,
        roomId: ROOM_ID,
        ...config,
      },
      lobby,
      this.now,
    );
  }

  /** Feeds one input at the kit's time; returns that step's effects. */
  feed(input: RoomInput): RoomEffect[] {
    const { state, effects } = roomStep(this.state, input, this.now);
    this.state = state;
    this.effects.push(...effects);
    if (input.kind === 'arrived') this.arrivals.set(input.peer.id, input.peer);
    if (input.kind === 'proof' && input.verdict.ok) this.isks.set(input.peerId, input.verdict.isk);
    for (const e of effects) {
      if (e.kind !== 'send' || e.message.type !== 'lobby.welcome' || !e.message.payload.resume) continue;
      const { you, resume } = e.message.payload;
      const secret = this.arrivals.get(e.peerId)?.secret ?? '';
      const before = this.keys.get(you);
      // The guest's derivation (guestJoin.ts): a new seat from its session; a rejoin from the seat's key.
      this.keys.set(
        you,
        you === e.peerId && before === undefined
          ? resumeKey(secret + (this.isks.get(e.peerId) ?? ''), resume)
          : resumeKey(before + secret, resume),
      );
    }
    for (const e of effects) if (e.kind === 'seat') for (const l of this.seatListeners) l(e);
    return [...effects];
  }

  /** Moves time on and ticks if a deadline came due (as the shell's one timer would). */
  advance(ms: number): RoomEffect[] {
    const until = this.now + ms;
    const out: RoomEffect[] = [];
    for (let guard = 0; guard < 10_000; guard++) {
      const wake = nextWake(this.state);
      if (wake === undefined || wake > until) break;
      this.now = Math.max(this.now, wake);
      out.push(...this.feed({ kind: 'tick' }));
    }
    this.now = until;
    return out;
  }

  arrive(peer: Arrival): RoomEffect[] {
    return this.feed({ kind: 'arrived', peer });
  }

  hello(peerId: number, payload: unknown): RoomEffect[] {
    return this.feed({ kind: 'hello', peerId, payload, fresh: fresh(this.secrets++), pingMs: null });
  }

  /** Connects and says hello; returns the hello's effects. */
  join(peer: Arrival, name = `P${peer.id}`, extra: Record<string, unknown> = {}): RoomEffect[] {
    this.arrive(peer);
    return this.hello(peer.id, hello(name, extra));
  }

  /** The resume token the last welcome to `seat` carried. */
  tokenOf(seat: number): string {
    for (let i = this.effects.length - 1; i >= 0; i--) {
      const e = this.effects[i]!;
      if (e.kind === 'send' && e.message.type === 'lobby.welcome' && e.message.payload.you === seat)
        return e.message.payload.resume!;
    }
    throw new Error(`no welcome to seat ${seat}`);
  }

  /** The hello fields of an honest rejoin of `seat` on connection `peer`: its token and the proof of its key. */
  resumeOf(seat: number, peer: Arrival): Record<string, unknown> {
    return { resume: this.tokenOf(seat), resumeProof: resumeProof(this.keys.get(seat)!, peer.connection) };
  }

  /** The game's view of who sits where. */
  get seatMap(): SeatMap {
    return {
      seatOf: (peerId) => this.state.seatOf.get(peerId),
      peerOf: (seat) => this.state.seats.get(seat)?.peer?.id,
      onChange: (listener) => {
        this.seatListeners.add(listener);
        return () => this.seatListeners.delete(listener);
      },
    };
  }

  get playerIds(): number[] {
    return this.state.lobby.players.map((p) => p.id);
  }
}

/** The refusals among effects, as [peer, reason]. */
export function rejections(effects: readonly RoomEffect[]): Array<[number, string]> {
  return effects.flatMap((e) =>
    e.kind === 'send' && e.message.type === 'lobby.rejected'
      ? [[e.peerId, e.message.payload.reason] as [number, string]]
      : [],
  );
}

/** Whether a challenge went to `peerId`. */
export const challenged = (effects: readonly RoomEffect[], peerId: number): boolean =>
  effects.some((e) => e.kind === 'challenge' && e.peerId === peerId);

/** Whether a welcome went to `peerId`. */
export const welcomed = (effects: readonly RoomEffect[], peerId: number): boolean =>
  effects.some((e) => e.kind === 'send' && e.peerId === peerId && e.message.type === 'lobby.welcome');

/** The connections dropped, with why. */
export const drops = (effects: readonly RoomEffect[]): Array<[number, string]> =>
  effects.flatMap((e) => (e.kind === 'drop' ? [[e.peerId, e.reason] as [number, string]] : []));
