import type { Peer } from '../../net/index';
import { LOBBY_PROTOCOL_VERSION } from '../../../shared/lobby/lobbyState';
import {
  LobbyMessage,
  RejectReason,
  guestMessageSchemas,
  helloVersionSchema,
  type GuestMessage,
  type HostMessages,
} from '../../../shared/lobby/lobbyMessages';
import type { Scheduler } from '../../base/scheduler';
import type { LobbyHostLimits } from './lobbyHostLimits';
import type { RandomBytes } from '../../net/pake/index';
import { hostChannel, startHostCheck, systemRandom, type HostPasswordCheck, type RoomKey } from '../passwordExchange';
import { PendingPeers } from './pendingPeers';
import { roomNameFor } from './playerNames';
import { TryBackoff } from './tryBackoff';
import { createAttemptBudget, type AttemptBudget } from '../../base/attemptBudget';

export type { RoomKey } from '../passwordExchange';

/** What a password room remembers about a challenge it sent: its half of the exchange, and the hello. */
interface Challenge {
  readonly check: HostPasswordCheck;
  readonly hello: GuestMessage<'lobby.hello'>;
}

/** What the desk needs from its room. */
export interface AdmissionDeskRoom {
  readonly roomKey: RoomKey | undefined;
  readonly limits: LobbyHostLimits;
  /** Seconds from connecting to being admitted. */
  readonly deadlineSec: number;
  readonly clock: Scheduler;
  /** CPace's ephemeral scalars and session ids; default the OS's CSPRNG. */
  readonly random?: RandomBytes;
  /** Why nobody can join right now (full, in a round), or undefined. */
  refusal(): RejectReason | undefined;
  /** Lets a peer in; the desk has forgotten it already. `confirm`: the host's password confirmation, for the welcome. */
  admit(peer: Peer, hello: GuestMessage<'lobby.hello'>, confirm?: string): void;
  /** A peer comes back to its seat with the resume token in its hello; the desk has forgotten it already. */
  resume(peer: Peer, hello: GuestMessage<'lobby.hello'> & { resume: string }): void;
  /** Tells a peer why not and lets it go; `retryAfterMs` with too-many-tries. */
  reject(peer: Peer, reason: RejectReason, retryAfterMs?: number): void;
  sendChallenge(peerId: number, challenge: HostMessages['lobby.challenge']): void;
  /** Drops a peer from the transport. */
  disconnect(peerId: number, reason: string): void;
}

/**
 * The room's door: every peer that connected but is not a player yet. It holds them in the pre-lobby slots
 * (their own budget, never the room's capacity), hears the one hello each may send, sends a password room's
 * challenge (passwordExchange.ts, bound to the peer's connection), checks the proof once per challenge and slows
 * down an address that keeps guessing, and the whole room past its password budget.
 */
export class AdmissionDesk {
  private readonly pending: PendingPeers<Challenge>;
  private readonly tries: TryBackoff;
  /** Password challenges for the whole room: per-address backoff alone is beaten by guessing from many addresses. */
  private readonly roomTries: AttemptBudget;
  /** Pre-lobby peers dropped for a newcomer, dropped at their deadline, and proofs checked. */
  readonly counts = { evicted: 0, expired: 0, passwordChecks: 0 };

  constructor(private readonly room: AdmissionDeskRoom) {
    const { limits, clock } = room;
    this.pending = new PendingPeers<Challenge>({
      budget: limits.preLobbySlots,
      perSource: limits.silentPerSource,
      deadlineMs: room.deadlineSec * 1000,
      clock,
      onExpired: (id) => {
        this.counts.expired += 1;
        room.disconnect(id, 'no hello in time');
      },
    });
    this.tries = new TryBackoff(limits.tries, () => clock.now());
    const { burst, refillMs } = limits.passwordBudget;
    this.roomTries = createAttemptBudget(() => clock.now(), burst, refillMs);
  }

  /** Peers waiting at the door now. */
  get waiting(): number {
    return this.pending.size;
  }

  /** A peer connected: it waits, and the oldest silent ones make way when the slots are full. */
  arrived(peer: Peer): void {
    for (const id of this.pending.add(peer.id, peer.address)) {
      this.counts.evicted += 1;
      this.room.disconnect(id, 'pre-lobby slots full: the slot went to a newer connection');
    }
  }

  /** A peer left, was admitted or was let go: forgotten, its deadline with it. */
  forget(peerId: number): void {
    this.pending.remove(peerId);
  }

  /** A refused peer keeps its slot until the transport drops it, but makes way first. */
  refused(peerId: number): void {
    this.pending.leave(peerId);
  }

  /** Forgets everyone (the room closes). */
  close(): void {
    this.pending.clear();
  }

  /** The one hello a connection may send. */
  hello(peer: Peer, payload: unknown): void {
    if (!this.pending.hear(peer.id)) return;
    const { room } = this;
    // The version first: an older or newer guest is told so, whatever else its hello carries.
    const version = helloVersionSchema.safeParse(payload);
    if (!version.success || version.data.v !== LOBBY_PROTOCOL_VERSION)
      return room.reject(peer, RejectReason.VERSION_MISMATCH);
    const parsed = guestMessageSchemas[LobbyMessage.HELLO].safeParse(payload);
    if (!parsed.success) return room.reject(peer, RejectReason.VERSION_MISMATCH);
    const wait = this.tries.waitMs(peer.address);
    if (wait > 0) return room.reject(peer, RejectReason.TOO_MANY_TRIES, wait);
    // Coming back to a seat: the token stands for the name, the password and the room's room (full, in a round).
    const { resume } = parsed.data;
    if (resume !== undefined) {
      this.pending.remove(peer.id);
      return room.resume(peer, { ...parsed.data, resume });
    }
    if (!roomNameFor(parsed.data.name, []).ok) return room.reject(peer, RejectReason.INVALID_NAME);
    const refusal = room.refusal();
    if (refusal) return room.reject(peer, refusal);
    if (!room.roomKey) return this.admit(peer, parsed.data);
    const roomWait = this.roomTries.take();
    if (roomWait > 0) return room.reject(peer, RejectReason.TOO_MANY_TRIES, roomWait);
    // A fresh scalar and session id for every challenge, bound to this connection's token and native keys.
    const channel = hostChannel(peer, parsed.data);
    const check = startHostCheck(room.roomKey, channel, room.random ?? systemRandom);
    this.pending.challenge(peer.id, { check, hello: parsed.data });
    room.sendChallenge(peer.id, check.challenge);
  }

  /** The answer to a challenge: checked once, in constant time. */
  proof(peer: Peer, payload: unknown): void {
    const { room } = this;
    // Taken once: a challenge answers one proof, so neither a retry nor a replay gets a second go with it.
    const challenge = this.pending.takeChallenge(peer.id);
    if (!challenge || !room.roomKey) return;
    this.counts.passwordChecks += 1;
    const parsed = guestMessageSchemas[LobbyMessage.PROOF].safeParse(payload);
    const verdict = parsed.success ? challenge.check.check(parsed.data) : undefined;
    if (!verdict?.ok) {
      // Either way the challenge is spent and the try counts; a proof of another design is another version's.
      this.tries.fail(peer.address);
      const malformed = !verdict || verdict.reason === 'malformed';
      return room.reject(peer, malformed ? RejectReason.VERSION_MISMATCH : RejectReason.WRONG_PASSWORD);
    }
    this.tries.succeed(peer.address);
    this.roomTries.succeeded();
    const refusal = room.refusal();
    if (refusal) return room.reject(peer, refusal);
    this.admit(peer, challenge.hello, verdict.confirm);
  }

  private admit(peer: Peer, hello: GuestMessage<'lobby.hello'>, confirm?: string): void {
    this.pending.remove(peer.id);
    this.room.admit(peer, hello, confirm);
  }
}
