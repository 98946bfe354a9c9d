import type { RateLimit } from '../../base/rateLimiter';
import type { AttemptBudgetLimit } from '../../base/attemptBudget';

/** How wrong or unanswered passwords from one source are slowed down. */
export interface BackoffRules {
  /** Tries that never wait (at least 1): after that many failures, each further try waits. */
  readonly freeTries: number;
  /** The wait after the first failure beyond the free ones, ms; it doubles with each further failure. */
  readonly firstWaitMs: number;
  readonly maxWaitMs: number;
  /** A source quiet for this long starts afresh. */
  readonly forgetAfterMs: number;
  /** Sources remembered at once (the oldest is forgotten first), so a spoofer cannot grow the table. */
  readonly maxSources: number;
}

/** 5 free tries, then 1 s, 2 s, 4 s … up to a minute; forgotten after 15 quiet minutes. */
export const DEFAULT_BACKOFF: BackoffRules = {
  freeTries: 5,
  firstWaitMs: 1000,
  maxWaitMs: 60_000,
  forgetAfterMs: 15 * 60_000,
  maxSources: 4096,
};

/** How much a room lets peers do before and after they are in it. */
export interface LobbyHostLimits {
  /** Peers held before the room at once (they never count against its capacity). */
  readonly preLobbySlots: number;
  /** Of those, silent ones (no hello yet) from one address at once. */
  readonly silentPerSource: number;
  /** Chat lines per player. */
  readonly chat: RateLimit;
  /** Ready toggles per player. */
  readonly ready: RateLimit;
  /** Wrong or unanswered passwords per source. */
  readonly tries: BackoffRules;
  /**
   * Password challenges for the whole room, whatever address they come from (main/base/attemptBudget.ts): `burst`
   * at once, then one every `refillMs`; a right password gives its challenge back.
   */
  readonly passwordBudget: AttemptBudgetLimit;
}

/**
 * 8 pre-lobby slots, 4 silent per address, 5 chat lines at once then 1 a second, 10 ready toggles then 2 a second,
 * 5 free tries per address, 20 password challenges at once for the room then one every 2 s.
 */
export const DEFAULT_LOBBY_HOST_LIMITS: LobbyHostLimits = {
  preLobbySlots: 8,
  silentPerSource: 4,
  chat: { burst: 5, perSecond: 1 },
  ready: { burst: 10, perSecond: 2 },
  tries: DEFAULT_BACKOFF,
  passwordBudget: { burst: 20, refillMs: 1500 },
};

/** Counters of what a room refused or dropped, for diagnostics and the lab's figures. */
export interface LobbyHostStats {
  /** Peers waiting to be admitted now. */
  readonly pending: number;
  /** Pre-lobby peers dropped to make way for a newcomer. */
  readonly evicted: number;
  /** Pre-lobby peers dropped because their deadline passed. */
  readonly expired: number;
  /** Password proofs checked. */
  readonly passwordChecks: number;
  /** Joins refused, by reason. */
  readonly rejected: Readonly<Record<string, number>>;
  readonly droppedChat: number;
  readonly droppedReady: number;
}
