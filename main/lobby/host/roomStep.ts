import { applyLobbyEvent } from '../../../shared/lobby/lobbyReducer';
import type { PlayerPath } from '../../../shared/lobby/lobbyState';
import {
  HOST_PLAYER_ID,
  LOBBY_PROTOCOL_VERSION,
  type LobbyEvent,
  type LobbyPlayer,
  type LobbyState,
} from '../../../shared/lobby/lobbyState';
import {
  APP_VERSION_MAX,
  LobbyMessage,
  RejectReason,
  guestMessageSchemas,
  helloVersionSchema,
  type GuestMessage,
  type HostMessages,
} from '../../../shared/lobby/lobbyMessages';
import { MAX_PING_MS } from '../../../shared/lobby/lobbyLimits';
import { GUEST_PALETTE, lobbyColourOf } from '../../../shared/lobby/lobbyPalette';
import { LOBBY_END_MESSAGES, tooManyTriesNotice } from '../lobbyErrors';
import { roomNameFor } from './playerNames';
import { fellBackToV1, v1FallbackWarning } from './v1Fallback';
import { resumeKey, resumeProof, sameText } from '../resumeProof';
import type { LobbyHostLimits } from './lobbyHostLimits';

/**
 * The host's room as one pure step: `roomStep(state, input, now) → { state, effects }`. It decides who may come
 * in (the door: pre-lobby slots, deadlines, password challenges, per-source backoff, the room-wide budget), who
 * sits where (seats held while a link is silent, resumes, releases), what players may say (chat and ready limits)
 * and what everyone is told. It reads no clock, arms no timer and touches no socket: the shell (lobbyHost.ts)
 * feeds it the transport's happenings with the one injected clock's `now` (ms) and carries out its effects. The
 * input state is never changed; maps are copied when a step writes to them.
 */

/** Who a connection is, as the door sees it. */
export interface Arrival {
  readonly id: number;
  /** What limits key on: a LAN guest's IP, an internet guest's own (sealed) address, never a relay's. */
  readonly source: string;
  /** What a resume token is bound to: the LAN guest's IP; every internet path shares one binding. */
  readonly binding: string;
  readonly protocol: 'v1' | 'native';
  readonly path: PlayerPath;
  /** For the host's log only. */
  readonly endpoint: string;
  /** The connection's id for a resume proof (hex: its native channel binding, else its token; resumeProof.ts). */
  readonly connection: string;
  /** The secret of its session so far (hex: the native channel binding; empty on v1). */
  readonly secret: string;
}

/** Where a connection is on its way in: said nothing, said hello, owes a proof, or refused (notice on its way). */
export type DoorStage = 'silent' | 'heard' | 'challenged' | 'leaving';

/** One connection at the door. */
export interface Waiting {
  readonly peer: Arrival;
  readonly deadline: number;
  readonly stage: DoorStage;
  /** The hello, once heard (what a password room admits once the proof checks). */
  readonly hello?: GuestMessage<'lobby.hello'>;
  /** The budget the challenge was taken from, given back when the proof checks. */
  readonly from?: 'room' | 'reserve';
  /** The fresh resume secret the hello came with (hex), for the seat it may get. */
  readonly fresh?: string;
}

/** Wrong or unanswered passwords of one source. */
export interface Backoff {
  readonly failures: number;
  readonly blockedUntil: number;
  readonly lastFailure: number;
}

/** A token bucket (tokens now, refilled up to `at`). */
export interface Bucket {
  readonly tokens: number;
  readonly at: number;
}

/** A seat: its player's connection now (undefined while held) and what the room knows of it. */
export interface Seat {
  readonly peer: Arrival | undefined;
  /** The seat's current token (its welcome's, public) and when it was issued; a token answers once. */
  readonly token: string;
  /** The token before it, to tell a spent token ("a newer connection took the seat") from a made-up one. */
  readonly spent?: string;
  /** The key a rejoin proves: derived from the token and the welcomed session's secret (resumeProof.ts). */
  readonly key: string;
  readonly issuedAt: number;
  readonly binding: string;
  /** While held: when the seat is let go. */
  readonly heldUntil?: number;
  /** Last time the seat's connection was heard (a datagram counted, a message). */
  readonly heardAt: number;
  /** The connection's datagram count at that time, to tell "heard" at the next sample. */
  readonly received: number;
}

/** Why the room lets a connection go (typed, for the transport's disconnect and the host's counters). */
export type DropReason = 'refused' | 'no-hello-in-time' | 'pre-lobby-full' | 'replaced' | 'kicked' | 'room-closed';

/** What the room is configured with at start; fixed for its life. */
export interface RoomConfig {
  readonly limits: LobbyHostLimits;
  readonly passwordRoom: boolean;
  /** Whether this host offers the native path (a LAN guest on v1 that offered it was stripped on the way). */
  readonly offersNative: boolean;
  readonly helloMs: number;
  readonly graceMs: number;
  readonly quietAfterMs: number;
  /** This room's random id (hex), in every resume token, so another room's token is told apart. */
  readonly roomId: string;
  readonly appVersion?: string;
}

/** The whole room. */
export interface RoomState {
  readonly config: RoomConfig;
  readonly lobby: LobbyState;
  /** Connections at the door, in arrival order (deadline order). */
  readonly door: ReadonlyMap<number, Waiting>;
  /** The deadline the shell was last asked to wake for: a wake much later than it means the host stalled. */
  readonly wokeFor: number | undefined;
  readonly backoff: ReadonlyMap<string, Backoff>;
  /** Password challenges for the whole room, whatever their source. */
  readonly budget: Bucket;
  /** A few more, only for sources that proved the password before (a real guest coming back during an attack). */
  readonly reserve: Bucket;
  /** Sources that proved the password, with when (bounded; oldest forgotten). */
  readonly proven: ReadonlyMap<string, number>;
  readonly seats: ReadonlyMap<number, Seat>;
  /** Seat by connection id. */
  readonly seatOf: ReadonlyMap<number, number>;
  readonly chat: ReadonlyMap<number, Bucket>;
  readonly ready: ReadonlyMap<number, Bucket>;
  readonly nextChatId: number;
  readonly counts: RoomCounts;
  readonly closed: boolean;
}

/** What the room refused or dropped so far. */
export interface RoomCounts {
  readonly evicted: number;
  readonly expired: number;
  readonly passwordChecks: number;
  readonly droppedChat: number;
  readonly droppedReady: number;
  readonly rejected: Readonly<Partial<Record<RejectReason, number>>>;
}

/** What the shell feeds the room. `now` is passed beside it, in ms of the one clock. */
export type RoomInput =
  | { readonly kind: 'arrived'; readonly peer: Arrival }
  /** `fresh`: 16 random bytes (hex) for the resume token of a seat this hello may get. */
  /** `pingMs`: the connection's round trip so far (null: not measured), for the player's first ping. */
  | {
      readonly kind: 'hello';
      readonly peerId: number;
      readonly payload: unknown;
      readonly fresh: string;
      readonly pingMs: number | null;
    }
  /** The shell checked a proof against the challenge it made on the room's word: only the verdict comes in. */
  | { readonly kind: 'proof'; readonly peerId: number; readonly verdict: ProofVerdict; readonly pingMs: number | null }
  | { readonly kind: 'ready' | 'chat'; readonly peerId: number; readonly payload: unknown }
  /** A connection ended: `silent` when it timed out (its seat is held), otherwise it left. */
  | { readonly kind: 'departed'; readonly peerId: number; readonly silent: boolean; readonly wallNow: number }
  /** Each seated connection's datagrams received so far: who was heard, who went quiet. */
  | { readonly kind: 'links'; readonly samples: ReadonlyArray<{ readonly peerId: number; readonly received: number }> }
  /** Each connection's round trip in ms (null: not measured). */
  | { readonly kind: 'pings'; readonly pings: ReadonlyArray<readonly [number, number | null]> }
  /** Deadlines: the door's and the held seats'. */
  | { readonly kind: 'tick' }
  | { readonly kind: 'host-ready'; readonly ready: boolean }
  | { readonly kind: 'host-chat'; readonly text: string }
  | { readonly kind: 'kick'; readonly seat: number }
  | { readonly kind: 'start' }
  | { readonly kind: 'play-again' }
  | { readonly kind: 'end-round' }
  | { readonly kind: 'close' };

/** The shell's verdict on a proof: it checks, it does not, or it is not a proof of this design. */
export type ProofVerdict =
  /** `isk`: the exchange's session key (hex), a secret of the session the seat's resume key is rooted in. */
  | { readonly ok: true; readonly confirm: string; readonly isk: string }
  | { readonly ok: false; readonly reason: 'mismatch' | 'malformed' };

/** A seat's change, for the game's view of the room. */
export type SeatChange = 'held' | 'resumed' | 'released';

/** What the room asks the shell to do. */
export type RoomEffect =
  | { readonly kind: 'send'; readonly peerId: number; readonly message: HostMessage }
  /** Start a password check with this connection and send its challenge. */
  | { readonly kind: 'challenge'; readonly peerId: number }
  /** Let a connection go: `delivered` once what was sent to it has arrived (a refusal), else now. */
  | { readonly kind: 'drop'; readonly peerId: number; readonly reason: DropReason; readonly delivered: boolean }
  | { readonly kind: 'seat'; readonly seat: number; readonly change: SeatChange; readonly reason?: SeatRelease }
  /** The lobby changed by one event: its state after it (a step may apply several, e.g. play again). */
  | { readonly kind: 'event'; readonly event: LobbyEvent; readonly lobby: LobbyState }
  | { readonly kind: 'log'; readonly text: string };

/** Why a seat was let go. */
export type SeatRelease = 'left' | 'kicked' | 'grace-over';

/** A message to a guest, typed by its kind. */
export type HostMessage = {
  [K in keyof HostMessages]: { readonly type: K; readonly payload: HostMessages[K] };
}[keyof HostMessages];

/** A step's outcome. */
export interface RoomStep {
  readonly state: RoomState;
  readonly effects: readonly RoomEffect[];
}

/**
 * How late a deadline may be handled before the host counts itself as stalled (a busy machine, a long GC) rather
 * than the peer as silent: a hello that arrived during the stall has not been read yet.
 */
export const STALL_MS = 250;
/** Time a peer whose deadline passed during a stall gets once the host runs again. */
export const STALL_GRACE_MS = 500;
/** A seat's connection heard this recently is alive: a resume never displaces it. */
export const ALIVE_MS = 1000;
/** Password challenges kept in reserve for sources that proved the password before. */
export const RESERVE_BURST = 4;
/** Sources remembered as having proved the password. */
export const PROVEN_MAX = 256;
/** How long a resume token lives at most: a room's longest life. */
export const TOKEN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** A fresh room: the host's lobby state and empty door, seats and tables. */
export function createRoom(config: RoomConfig, lobby: LobbyState, now: number): RoomState {
  const { burst } = config.limits.passwordBudget;
  return {
    config,
    lobby,
    door: new Map(),
    wokeFor: undefined,
    backoff: new Map(),
    budget: { tokens: burst, at: now },
    reserve: { tokens: RESERVE_BURST, at: now },
    proven: new Map(),
    seats: new Map(),
    seatOf: new Map(),
    chat: new Map(),
    ready: new Map(),
    nextChatId: 1,
    counts: { evicted: 0, expired: 0, passwordChecks: 0, droppedChat: 0, droppedReady: 0, rejected: {} },
    closed: false,
  };
}

/** When the room next needs a `tick`: the earliest door deadline or held seat's end; undefined when none. */
export function nextWake(state: RoomState): number | undefined {
  let at = state.door.values().next().value?.deadline;
  for (const seat of state.seats.values()) {
    if (seat.heldUntil !== undefined && (at === undefined || seat.heldUntil < at)) at = seat.heldUntil;
  }
  return at;
}

/** The resume token of a seat: the room's id, the seat and a one-time nonce (public: the key is what is proved). */
export function resumeToken(roomId: string, seat: number, nonce: string): string {
  return `r3.${roomId}.${seat}.${nonce}`;
}

/** One step of the room. Pure: same state, input and time, same outcome. */
export function roomStep(state: RoomState, input: RoomInput, now: number): RoomStep {
  if (state.closed) return { state, effects: [] };
  const step = new Step(state, now);
  step.run(input);
  return step.result();
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };
type MapKey = 'door' | 'backoff' | 'proven' | 'seats' | 'seatOf' | 'chat' | 'ready';
type MapOf<K extends MapKey> = RoomState[K] extends ReadonlyMap<infer A, infer B> ? Map<A, B> : never;

/** One step in progress: a shallow copy of the state whose maps are copied on first write. */
class Step {
  private readonly s: Writable<RoomState>;
  private readonly copied = new Set<MapKey>();
  private readonly effects: RoomEffect[] = [];

  constructor(
    state: RoomState,
    private readonly now: number,
  ) {
    this.s = { ...state };
  }

  result(): RoomStep {
    // What the shell arms its one timer for: a wake much later than this is a stalled host (see tick).
    this.s.wokeFor = nextWake(this.s);
    return { state: this.s, effects: this.effects };
  }

  private edit<K extends MapKey>(key: K): MapOf<K> {
    if (!this.copied.has(key)) {
      this.s[key] = new Map(this.s[key] as ReadonlyMap<unknown, unknown>) as never;
      this.copied.add(key);
    }
    return this.s[key] as MapOf<K>;
  }

  private count(field: Exclude<keyof RoomCounts, 'rejected'>): void {
    this.s.counts = { ...this.s.counts, [field]: this.s.counts[field] + 1 };
  }

  run(input: RoomInput): void {
    switch (input.kind) {
      case 'arrived':
        return this.arrived(input.peer);
      case 'hello':
        return this.hello(input.peerId, input.payload, input.fresh, input.pingMs);
      case 'proof':
        return this.proof(input.peerId, input.verdict, input.pingMs);
      case 'ready':
      case 'chat':
        return this.message(input.kind, input.peerId, input.payload);
      case 'departed':
        return this.departed(input.peerId, input.silent, input.wallNow);
      case 'links':
        return this.links(input.samples);
      case 'pings':
        return this.pings(input.pings);
      case 'tick':
        return this.tick();
      case 'host-ready':
        return this.apply({ kind: 'ready', playerId: HOST_PLAYER_ID, ready: input.ready });
      case 'host-chat':
        return this.postChat(HOST_PLAYER_ID, input.text);
      case 'kick':
        return this.kick(input.seat);
      case 'start':
        return this.apply({ kind: 'phase', phase: 'playing' });
      case 'play-again':
        this.apply({ kind: 'phase', phase: 'lobby' });
        for (const p of this.s.lobby.players) if (!p.host) this.apply({ kind: 'ready', playerId: p.id, ready: true });
        return this.apply({ kind: 'phase', phase: 'playing' });
      case 'end-round':
        if (this.s.lobby.phase === 'playing') this.apply({ kind: 'phase', phase: 'lobby' });
        return;
      case 'close':
        return this.close();
    }
  }

  // ——— the door ———

  /** A connection waits at the door; the oldest silent ones make way when the slots are full. */
  private arrived(peer: Arrival): void {
    if (this.s.seatOf.has(peer.id) || this.s.door.has(peer.id)) return;
    const { preLobbySlots, silentPerSource } = this.s.config.limits;
    const door = this.edit('door');
    door.set(peer.id, { peer, deadline: this.now + this.s.config.helloMs, stage: 'silent' });
    const sameSource = [...door.values()].filter((w) => w.stage === 'silent' && w.peer.source === peer.source);
    for (let i = 0; sameSource.length - i > silentPerSource; i++) this.evict(sameSource[i]!.peer.id);
    while (door.size > preLobbySlots) this.evict(this.victim(peer.id));
  }

  /** The oldest leaving connection, else the oldest silent one, else the oldest; never the newcomer. */
  private victim(newcomer: number): number {
    let silent: number | undefined;
    let oldest: number | undefined;
    for (const { peer, stage } of this.s.door.values()) {
      if (peer.id === newcomer) continue;
      if (stage === 'leaving') return peer.id;
      if (stage === 'silent') silent ??= peer.id;
      oldest ??= peer.id;
    }
    return silent ?? oldest ?? newcomer;
  }

  private evict(peerId: number): void {
    const waiting = this.s.door.get(peerId);
    if (!waiting) return;
    this.count('evicted');
    // An open challenge given up counts against its source, as an unanswered one does.
    if (waiting.stage === 'challenged') this.failed(waiting.peer.source);
    this.edit('door').delete(peerId);
    this.effects.push({ kind: 'drop', peerId, reason: 'pre-lobby-full', delivered: false });
  }

  /** The one hello a connection may send. */
  private hello(peerId: number, payload: unknown, fresh: string, pingMs: number | null): void {
    const waiting = this.s.door.get(peerId);
    if (waiting?.stage !== 'silent') return;
    this.edit('door').set(peerId, { ...waiting, stage: 'heard', fresh });
    // The version first: an older or newer guest is told so, whatever else its hello carries.
    const version = helloVersionSchema.safeParse(payload);
    if (!version.success || version.data.v !== LOBBY_PROTOCOL_VERSION)
      return this.reject(peerId, RejectReason.VERSION_MISMATCH);
    const parsed = guestMessageSchemas[LobbyMessage.HELLO].safeParse(payload);
    if (!parsed.success) return this.reject(peerId, RejectReason.VERSION_MISMATCH);
    const hello = parsed.data;
    // Coming back to a seat is judged before any backoff: the token is the proof, and a relayed guest's neighbours'
    // wrong guesses must not keep it out of its own seat.
    if (hello.resume !== undefined)
      return this.resume(waiting.peer, hello.resume, hello.resumeProof ?? '', fresh, pingMs);
    if (!roomNameFor(hello.name, []).ok) return this.reject(peerId, RejectReason.INVALID_NAME);
    const refusal = this.refusal();
    if (refusal) return this.reject(peerId, refusal);
    if (!this.s.config.passwordRoom) return this.admit(waiting.peer, hello, fresh, pingMs);
    const source = waiting.peer.source;
    const wait = this.backoffWait(source);
    if (wait > 0) return this.reject(peerId, RejectReason.TOO_MANY_TRIES, wait);
    // One open challenge per source: a second hello from it waits for the first one's answer or deadline.
    for (const other of this.s.door.values()) {
      if (other.stage === 'challenged' && other.peer.source === source)
        return this.reject(peerId, RejectReason.TOO_MANY_TRIES, Math.max(1, other.deadline - this.now));
    }
    const from = this.takeBudget(source);
    if (typeof from === 'number') return this.reject(peerId, RejectReason.TOO_MANY_TRIES, from);
    this.edit('door').set(peerId, { ...waiting, stage: 'challenged', hello, from, fresh });
    this.effects.push({ kind: 'challenge', peerId });
  }

  /** The shell's verdict on the answer to a challenge: taken once. */
  private proof(peerId: number, verdict: ProofVerdict, pingMs: number | null): void {
    const waiting = this.s.door.get(peerId);
    if (waiting?.stage !== 'challenged' || !waiting.hello) return;
    this.edit('door').set(peerId, { ...waiting, stage: 'heard' });
    this.count('passwordChecks');
    const { source } = waiting.peer;
    if (!verdict.ok) {
      this.failed(source);
      return this.reject(
        peerId,
        verdict.reason === 'malformed' ? RejectReason.VERSION_MISMATCH : RejectReason.WRONG_PASSWORD,
      );
    }
    this.edit('backoff').delete(source);
    this.giveBack(waiting.from);
    const proven = this.edit('proven');
    proven.delete(source);
    proven.set(source, this.now);
    if (proven.size > PROVEN_MAX) proven.delete(proven.keys().next().value!);
    const refusal = this.refusal();
    if (refusal) return this.reject(peerId, refusal);
    this.admit(waiting.peer, waiting.hello, waiting.fresh ?? '', pingMs, verdict.confirm, verdict.isk);
  }

  /** Why nobody can join right now, or undefined. Connections at the door never count: only players do. */
  private refusal(): RejectReason | undefined {
    if (this.s.lobby.phase !== 'lobby') return RejectReason.IN_GAME;
    if (this.s.lobby.players.length >= this.s.lobby.capacity) return RejectReason.FULL;
    return undefined;
  }

  /** Tells a connection why not; it makes way first, and goes once the notice is delivered. */
  private reject(peerId: number, reason: RejectReason, retryAfterMs?: number): void {
    const waiting = this.s.door.get(peerId);
    if (waiting) this.edit('door').set(peerId, { ...waiting, stage: 'leaving' });
    const message =
      retryAfterMs === undefined
        ? { reason, message: LOBBY_END_MESSAGES[reason], ...this.versionsFor(reason) }
        : tooManyTriesNotice(retryAfterMs);
    this.sendTo(peerId, { type: LobbyMessage.REJECTED, payload: message });
    const rejected = this.s.counts.rejected;
    this.s.counts = { ...this.s.counts, rejected: { ...rejected, [reason]: (rejected[reason] ?? 0) + 1 } };
    this.effects.push({ kind: 'drop', peerId, reason: 'refused', delivered: true });
  }

  /** With a version refusal, the host's app version and lobby protocol, so the guest can say who must update. */
  private versionsFor(reason: RejectReason): { hostProtocol?: number; hostApp?: string } {
    if (reason !== RejectReason.VERSION_MISMATCH) return {};
    const { appVersion } = this.s.config;
    return {
      hostProtocol: LOBBY_PROTOCOL_VERSION,
      ...(appVersion ? { hostApp: appVersion.slice(0, APP_VERSION_MAX) } : {}),
    };
  }

  // ——— password budgets ———

  /** Milliseconds `source` must still wait before its next try is heard (0: now). */
  private backoffWait(source: string): number {
    const record = this.s.backoff.get(source);
    if (!record) return 0;
    const { forgetAfterMs } = this.s.config.limits.tries;
    if (this.now - record.lastFailure > forgetAfterMs && this.now >= record.blockedUntil) {
      this.edit('backoff').delete(source);
      return 0;
    }
    return Math.max(0, record.blockedUntil - this.now);
  }

  /** A wrong, unanswered or abandoned challenge: beyond the free tries, the source's next one waits, doubling. */
  private failed(source: string): void {
    const rules = this.s.config.limits.tries;
    this.backoffWait(source); // forgets a record quiet for long enough first
    const backoff = this.edit('backoff');
    const failures = (backoff.get(source)?.failures ?? 0) + 1;
    const beyond = failures - rules.freeTries;
    const blockedUntil =
      beyond >= 0
        ? this.now + Math.min(rules.maxWaitMs, rules.firstWaitMs * 2 ** Math.min(beyond, 30))
        : (backoff.get(source)?.blockedUntil ?? 0);
    // Re-inserted so the table stays in order of last failure, oldest first, for eviction.
    backoff.delete(source);
    backoff.set(source, { failures, blockedUntil, lastFailure: this.now });
    while (backoff.size > rules.maxSources) backoff.delete(backoff.keys().next().value!);
  }

  /** Takes a challenge from the room's budget (or, for a source that proved before, its reserve), or the wait. */
  private takeBudget(source: string): 'room' | 'reserve' | number {
    const { burst, refillMs } = this.s.config.limits.passwordBudget;
    const budget = refill(this.s.budget, this.now, burst, refillMs);
    if (budget.tokens >= 1) {
      this.s.budget = { ...budget, tokens: budget.tokens - 1 };
      return 'room';
    }
    this.s.budget = budget;
    const reserve = refill(this.s.reserve, this.now, RESERVE_BURST, refillMs);
    this.s.reserve = reserve;
    if (this.s.proven.has(source) && reserve.tokens >= 1) {
      this.s.reserve = { ...reserve, tokens: reserve.tokens - 1 };
      return 'reserve';
    }
    return Math.ceil((1 - budget.tokens) * refillMs);
  }

  /** A proof that checked gives its challenge back. */
  private giveBack(from: 'room' | 'reserve' | undefined): void {
    const { burst, refillMs } = this.s.config.limits.passwordBudget;
    if (from === 'room') {
      const b = refill(this.s.budget, this.now, burst, refillMs);
      this.s.budget = { ...b, tokens: Math.min(burst, b.tokens + 1) };
    } else if (from === 'reserve') {
      const r = refill(this.s.reserve, this.now, RESERVE_BURST, refillMs);
      this.s.reserve = { ...r, tokens: Math.min(RESERVE_BURST, r.tokens + 1) };
    }
  }

  // ——— seats ———

  /** Lets a connection in: a seat (its id is the connection's, the player keeps it), the welcome, the news. */
  private admit(
    peer: Arrival,
    hello: GuestMessage<'lobby.hello'>,
    fresh: string,
    pingMs: number | null,
    confirm?: string,
    isk = '',
  ): void {
    this.edit('door').delete(peer.id);
    const name = roomNameFor(
      hello.name,
      this.s.lobby.players.map((p) => p.name),
    );
    if (!name.ok) return this.reject(peer.id, RejectReason.INVALID_NAME);
    const seat = peer.id;
    const token = resumeToken(this.s.config.roomId, seat, fresh);
    this.edit('seats').set(seat, {
      peer,
      token,
      key: resumeKey(peer.secret + isk, token),
      issuedAt: this.now,
      binding: peer.binding,
      heardAt: this.now,
      received: -1,
    });
    this.edit('seatOf').set(peer.id, seat);
    const fellBack = fellBackToV1(this.s.config.offersNative, hello, peer.protocol, peer.path);
    if (fellBack) this.log(v1FallbackWarning(name.name, peer.endpoint));
    const colour = lobbyColourOf(hello.colour, GUEST_PALETTE);
    const player: LobbyPlayer = {
      id: seat,
      name: name.name,
      colour,
      ready: false,
      host: false,
      pingMs: shownPing(pingMs),
      path: peer.path,
    };
    this.apply({ kind: 'joined', player: fellBack ? { ...player, fellBackToV1: true } : player }, seat);
    this.welcome(seat, confirm);
  }

  private welcome(seat: number, confirm?: string): void {
    const record = this.s.seats.get(seat)!;
    this.send(seat, {
      type: LobbyMessage.WELCOME,
      payload: {
        you: seat,
        state: this.s.lobby,
        resume: record.token,
        graceSec: this.s.config.graceMs / 1000,
        ...(confirm !== undefined ? { confirm } : {}),
      },
    });
  }

  /**
   * A guest comes back with its seat's token and the proof of the seat's key on this connection. Its seat, name,
   * colour, ready state and score are its own again; a connection of the seat heard within ALIVE_MS is never
   * displaced (the guest retries once it is gone).
   */
  private resume(peer: Arrival, token: string, proof: string, fresh: string, pingMs: number | null): void {
    const seatId = this.redeem(token, proof, peer);
    if (typeof seatId === 'string') {
      this.reject(peer.id, RejectReason.SEAT_GONE);
      // The sentence says which way the seat is gone; the reason stays the final seat-gone.
      return this.replaceLastRejection(peer.id, RESUME_REFUSALS[seatId]);
    }
    const record = this.s.seats.get(seatId)!;
    if (record.peer !== undefined && this.now - record.heardAt < ALIVE_MS)
      return this.reject(peer.id, RejectReason.TOO_MANY_TRIES, ALIVE_MS);
    this.edit('door').delete(peer.id);
    if (record.peer !== undefined) {
      this.edit('seatOf').delete(record.peer.id);
      this.effects.push({ kind: 'drop', peerId: record.peer.id, reason: 'replaced', delivered: false });
    }
    const { heldUntil: _held, ...kept } = record;
    const next = resumeToken(this.s.config.roomId, seatId, fresh);
    this.edit('seats').set(seatId, {
      ...kept,
      peer,
      token: next,
      spent: record.token,
      // The next key stays rooted in the first session's secret (a v1 rejoin brings no secret of its own).
      key: resumeKey(record.key + peer.secret, next),
      issuedAt: this.now,
      heardAt: this.now,
      received: -1,
    });
    this.edit('seatOf').set(peer.id, seatId);
    const player = this.s.lobby.players.find((p) => p.id === seatId);
    if (player) {
      const { awayUntil: _away, linkQuiet: _quiet, ...rest } = player;
      this.apply({ kind: 'joined', player: { ...rest, pingMs: shownPing(pingMs), path: peer.path } }, seatId);
    }
    this.welcome(seatId);
    this.effects.push({ kind: 'seat', seat: seatId, change: 'resumed' });
  }

  /**
   * The seat a token stands for, or why not: the seat's one current token, and the proof of its key on the
   * connection it comes on (both compared in constant time). A token seen on the wire, without the key, is refused.
   */
  private redeem(token: string, proof: string, peer: Arrival): number | ResumeRefusal {
    const match = /^r3\.([0-9a-f]{16})\.(\d{1,5})\.[0-9a-f]{32}$/.exec(token);
    if (!match) return 'malformed';
    if (match[1] !== this.s.config.roomId) return 'other-room';
    const seatId = Number(match[2]);
    const record = this.s.seats.get(seatId);
    if (!record || (record.heldUntil !== undefined && this.now >= record.heldUntil)) return 'no-seat';
    if (!sameText(record.token, token)) return record.spent && sameText(record.spent, token) ? 'used' : 'forged';
    if (!sameText(resumeProof(record.key, peer.connection), proof)) return 'forged';
    if (this.now - record.issuedAt > TOKEN_MAX_AGE_MS) return 'no-seat';
    if (record.binding !== peer.binding) return 'other-address';
    return seatId;
  }

  private replaceLastRejection(peerId: number, message: string): void {
    for (let i = this.effects.length - 1; i >= 0; i--) {
      const e = this.effects[i]!;
      if (e.kind === 'send' && e.peerId === peerId && e.message.type === LobbyMessage.REJECTED) {
        this.effects[i] = {
          ...e,
          message: { type: LobbyMessage.REJECTED, payload: { ...e.message.payload, message } },
        };
        return;
      }
    }
  }

  /** A connection ended: at the door it is forgotten; a silent seat is held for the grace, a goodbye lets it go. */
  private departed(peerId: number, silent: boolean, wallNow: number): void {
    const waiting = this.s.door.get(peerId);
    if (waiting) {
      if (waiting.stage === 'challenged') this.failed(waiting.peer.source);
      this.edit('door').delete(peerId);
      return;
    }
    const seat = this.s.seatOf.get(peerId);
    if (seat === undefined) return;
    this.edit('seatOf').delete(peerId);
    const graceMs = this.s.config.graceMs;
    if (!silent || graceMs === 0) return this.release(seat, silent ? 'grace-over' : 'left');
    const record = this.s.seats.get(seat)!;
    this.edit('seats').set(seat, { ...record, peer: undefined, heldUntil: this.now + graceMs });
    this.effects.push({ kind: 'seat', seat, change: 'held' });
    const player = this.s.lobby.players.find((p) => p.id === seat);
    if (player) {
      const { linkQuiet: _quiet, ...rest } = player;
      this.apply({ kind: 'joined', player: { ...rest, awayUntil: Math.round(wallNow + graceMs) } });
    }
  }

  /** Lets a seat go for good; its player leaves the lobby and its limits are forgotten. */
  private release(seat: number, reason: SeatRelease): void {
    const record = this.s.seats.get(seat);
    if (!record) return;
    if (record.peer) this.edit('seatOf').delete(record.peer.id);
    this.edit('seats').delete(seat);
    this.edit('chat').delete(seat);
    this.edit('ready').delete(seat);
    this.effects.push({ kind: 'seat', seat, change: 'released', reason });
    this.apply({ kind: 'left', playerId: seat, reason: reason === 'grace-over' ? 'timed-out' : reason });
  }

  private kick(seat: number): void {
    const record = this.s.seats.get(seat);
    if (seat === HOST_PLAYER_ID || !record) return;
    this.send(seat, {
      type: LobbyMessage.CLOSING,
      payload: { reason: RejectReason.KICKED, message: LOBBY_END_MESSAGES.kicked },
    });
    this.release(seat, 'kicked');
    if (record.peer) this.effects.push({ kind: 'drop', peerId: record.peer.id, reason: 'kicked', delivered: true });
  }

  /** Door deadlines (a stalled host gives overdue peers a moment first) and held seats past their grace. */
  private tick(): void {
    const wokeFor = this.s.wokeFor;
    const late = wokeFor === undefined ? 0 : this.now - wokeFor;
    if (late > STALL_MS) {
      const door = this.edit('door');
      for (const [id, w] of door) {
        if (w.deadline > this.now) break;
        door.set(id, { ...w, deadline: this.now + STALL_GRACE_MS });
      }
    } else {
      for (const w of [...this.s.door.values()]) {
        if (w.deadline > this.now) break;
        this.count('expired');
        if (w.stage === 'challenged') this.failed(w.peer.source);
        this.edit('door').delete(w.peer.id);
        this.effects.push({ kind: 'drop', peerId: w.peer.id, reason: 'no-hello-in-time', delivered: false });
      }
    }
    for (const [seat, record] of [...this.s.seats]) {
      if (record.heldUntil !== undefined && this.now >= record.heldUntil) this.release(seat, 'grace-over');
    }
  }

  /** Who was heard since the last samples, and who went quiet ("reconnecting…", no countdown). */
  private links(samples: ReadonlyArray<{ readonly peerId: number; readonly received: number }>): void {
    for (const { peerId, received } of samples) {
      const seat = this.s.seatOf.get(peerId);
      const record = seat === undefined ? undefined : this.s.seats.get(seat);
      if (seat === undefined || !record) continue;
      if (record.received !== received) this.edit('seats').set(seat, { ...record, received, heardAt: this.now });
      const quiet = this.now - this.s.seats.get(seat)!.heardAt > this.s.config.quietAfterMs;
      const player = this.s.lobby.players.find((p) => p.id === seat);
      if (!player || Boolean(player.linkQuiet) === quiet) continue;
      const { linkQuiet: _was, ...rest } = player;
      this.apply({ kind: 'joined', player: quiet ? { ...rest, linkQuiet: true } : rest });
    }
  }

  private pings(pings: ReadonlyArray<readonly [number, number | null]>): void {
    const bySeat: Array<[number, number | null]> = [];
    for (const [peerId, ms] of pings) {
      const seat = this.s.seatOf.get(peerId);
      if (seat !== undefined) bySeat.push([seat, shownPing(ms)]);
    }
    if (bySeat.length > 0) this.apply({ kind: 'pings', pings: bySeat });
  }

  // ——— what players say ———

  /** A seated player's ready toggle or chat line: its rate limit before parsing, so a flood costs a counter. */
  private message(kind: 'ready' | 'chat', peerId: number, payload: unknown): void {
    const seat = this.s.seatOf.get(peerId);
    if (seat === undefined) return;
    const record = this.s.seats.get(seat)!;
    this.edit('seats').set(seat, { ...record, heardAt: this.now });
    const limit = this.s.config.limits[kind];
    const buckets = this.edit(kind);
    const bucket = refill(
      buckets.get(seat) ?? { tokens: limit.burst, at: this.now },
      this.now,
      limit.burst,
      1000 / Math.max(limit.perSecond, 1e-9),
    );
    if (bucket.tokens < 1) {
      buckets.set(seat, bucket);
      return this.count(kind === 'chat' ? 'droppedChat' : 'droppedReady');
    }
    buckets.set(seat, { ...bucket, tokens: bucket.tokens - 1 });
    if (kind === 'ready') {
      const parsed = guestMessageSchemas[LobbyMessage.READY].safeParse(payload);
      if (parsed.success) this.apply({ kind: 'ready', playerId: seat, ready: parsed.data.ready });
    } else {
      const parsed = guestMessageSchemas[LobbyMessage.CHAT].safeParse(payload);
      if (parsed.success) this.postChat(seat, parsed.data.text);
    }
  }

  private postChat(from: number, text: string): void {
    const name = this.s.lobby.players.find((p) => p.id === from)?.name ?? '?';
    this.apply({ kind: 'chat', line: { id: this.s.nextChatId, from, name, text } });
    this.s.nextChatId += 1;
  }

  private close(): void {
    this.s.closed = true;
    this.s.door = new Map();
    this.s.seats = new Map();
    this.s.seatOf = new Map();
    this.s.wokeFor = undefined;
  }

  // ——— telling ———

  /** Applies an event and sends it to every seated guest but `skip` (who gets a welcome instead). */
  private apply(event: LobbyEvent, skip?: number): void {
    this.s.lobby = applyLobbyEvent(this.s.lobby, event);
    this.effects.push({ kind: 'event', event, lobby: this.s.lobby });
    const revision = this.s.lobby.revision;
    for (const [seat, record] of this.s.seats) {
      if (seat !== skip && record.peer)
        this.sendTo(record.peer.id, { type: LobbyMessage.EVENT, payload: { event, revision } });
    }
  }

  private send(seat: number, message: HostMessage): void {
    const peer = this.s.seats.get(seat)?.peer;
    if (peer) this.sendTo(peer.id, message);
  }

  private sendTo(peerId: number, message: HostMessage): void {
    this.effects.push({ kind: 'send', peerId, message });
  }

  private log(text: string): void {
    this.effects.push({ kind: 'log', text });
  }
}

/** Why a resume token was refused. */
export type ResumeRefusal = 'malformed' | 'other-room' | 'forged' | 'no-seat' | 'used' | 'other-address';

/** What a guest whose token was refused reads. */
const RESUME_REFUSALS: Record<ResumeRefusal, string> = {
  'no-seat': 'Your seat in the room was given up: you were away longer than the host waits.',
  'other-address': 'Your seat waits for the computer that left it: this connection comes from another address.',
  used: 'Your seat was already taken back by a newer connection of yours.',
  'other-room': 'The room did not recognise you: join it again.',
  forged: 'The room did not recognise you: join it again.',
  malformed: 'The room did not recognise you: join it again.',
};

/** A round trip as the lobby shows it: whole ms, capped. */
function shownPing(ms: number | null): number | null {
  return ms === null ? null : Math.min(MAX_PING_MS, Math.round(ms));
}

/** A bucket refilled to `now`: one token every `refillMs`, at most `burst`. */
function refill(bucket: Bucket, now: number, burst: number, refillMs: number): Bucket {
  return { tokens: Math.min(burst, bucket.tokens + Math.max(0, now - bucket.at) / refillMs), at: now };
}
