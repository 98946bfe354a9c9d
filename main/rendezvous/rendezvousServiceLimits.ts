import type { RateLimit } from '../base/rateLimiter';

/** The service's bounds and timings; every field has a default fit for one small public machine. */
export interface RendezvousServiceLimits {
  /** Rooms held at once (registered or in their grace period). */
  readonly maxRooms: number;
  /**
   * Of those, registered from one address (an IPv4 address, an IPv6 /64) and from one prefix (/24, /56): without
   * them ~125 addresses filled every slot for a day. A room counts against whoever registered it until it is gone;
   * its owner registering it again (a dropped link, a new address) is never refused by these.
   */
  readonly maxRoomsPerAddress: number;
  readonly maxRoomsPerPrefix: number;
  /** Guests waiting on one room (asked to join, not yet answered or timed out). */
  readonly maxPendingJoinsPerRoom: number;
  /** Of those, from one source address (so one address cannot keep a room unjoinable). */
  readonly maxPendingJoinsPerAddressPerRoom: number;
  /** Joins one connection may have open at once. */
  readonly maxJoinsPerConnection: number;
  /** WebSocket connections at once, and from one source address. */
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
  /** How long a room outlives its host's connection, so a host whose link drops (or a restarted service) can come back. */
  readonly hostGraceMs: number;
  /** Longest life of a room, connected or not; after it the code stops working. */
  readonly roomMaxAgeMs: number;
  /** How long a join waits for the host's answer. */
  readonly joinTtlMs: number;
  /** How long an answered join still forwards its confirmation and signals (then it ends and holds nothing). */
  readonly trickleTtlMs: number;
  /** A connection that neither hosts nor joins is closed after this long without a message. */
  readonly idleMs: number;
  /**
   * Unknown-room answers an address gets at once; past them its joins (of any room) are answered one after
   * another, each `probeStepMs` later than the last (growing up to `probeMaxDelayMs`), and refused at once
   * when the wait would pass `probeMaxQueueMs`.
   */
  readonly probeBudget: RateLimit;
  readonly probeStepMs: number;
  readonly probeMaxDelayMs: number;
  readonly probeMaxQueueMs: number;
  /**
   * Joins the host answered that did not get in (the host sent no signalling: a wrong code, a guess, a join
   * dropped half-way) one address may have on one room within `unprovenJoinWindowMs`; past them its joins
   * of that room are refused. Each answer spends one of the room's guesses (the host's budget: 20, then one
   * every 2 s), so without this a few addresses could keep that budget empty and every real guest out; with
   * 2 per 2 minutes, eight addresses together spend less than the budget holds.
   */
  readonly maxUnprovenJoinsPerAddressPerRoom: number;
  readonly unprovenJoinWindowMs: number;
  /**
   * Joins of one room answered and not yet accepted at once, from all addresses (the host's checks in flight);
   * a newer join ends the oldest.
   */
  readonly maxUnprovenJoinsPerRoom: number;
  /** Messages per source address. */
  readonly messageRate: RateLimit;
  /** New connections per source address. */
  readonly connectRate: RateLimit;
  /** Refused messages (malformed, rate-limited, not allowed) after which a connection is closed. */
  readonly maxStrikes: number;
  /** Lifetime of minted TURN credentials, seconds (one ICE session's relay). */
  readonly turnTtlSeconds: number;
  /**
   * TURN grants, both sides' only once the host accepted the join (the code proved): a guest's counted against its
   * address and prefix, a host's (one per join it accepted) against its address (more: a room takes many guests). Past them the join still goes on,
   * without credentials (a relay-less path on that side).
   */
  readonly turnGrantsPerAddress: RateLimit;
  readonly turnGrantsPerPrefix: RateLimit;
  readonly turnGrantsPerHostAddress: RateLimit;
}

/** The defaults. */
export const DEFAULT_RENDEZVOUS_LIMITS: RendezvousServiceLimits = {
  maxRooms: 2000,
  maxRoomsPerAddress: 4,
  maxRoomsPerPrefix: 16,
  maxPendingJoinsPerRoom: 8,
  maxPendingJoinsPerAddressPerRoom: 2,
  maxJoinsPerConnection: 4,
  maxConnections: 4000,
  maxConnectionsPerAddress: 16,
  hostGraceMs: 60_000,
  roomMaxAgeMs: 24 * 60 * 60_000,
  joinTtlMs: 15_000,
  trickleTtlMs: 20_000,
  idleMs: 30_000,
  probeBudget: { burst: 5, perSecond: 0.1 },
  probeStepMs: 1000,
  probeMaxDelayMs: 10_000,
  probeMaxQueueMs: 30_000,
  maxUnprovenJoinsPerAddressPerRoom: 2,
  unprovenJoinWindowMs: 120_000,
  maxUnprovenJoinsPerRoom: 8,
  messageRate: { burst: 40, perSecond: 10 },
  connectRate: { burst: 10, perSecond: 1 },
  maxStrikes: 20,
  turnTtlSeconds: 60 * 60,
  // A party's worth an hour per address (guests rejoining, paths restarting), a few parties' per prefix.
  turnGrantsPerAddress: { burst: 30, perSecond: 30 / 3600 },
  turnGrantsPerPrefix: { burst: 240, perSecond: 240 / 3600 },
  // A room's host: every guest's join and rejoin in an hour of a full room, a few times over.
  turnGrantsPerHostAddress: { burst: 300, perSecond: 300 / 3600 },
};

/** How often expired rooms and joins are swept out. */
export const RENDEZVOUS_SWEEP_MS = 1000;
