import type { RateLimit } from '../base/rateLimiter';

/** The service's bounds and timings; every field has a default fit for one small public machine. */
export interface RendezvousServiceLimits {
  /** Rooms held at once (registered or in their grace period). */
  readonly maxRooms: number;
  /** Guests waiting on one room (asked to join, not yet answered or timed out). */
  readonly maxPendingJoinsPerRoom: number;
  /** Joins one connection may have open at once. */
  readonly maxJoinsPerConnection: number;
  /** WebSocket connections at once, and from one source address. */
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
  /** How long a room outlives its host's connection, so a host whose link drops (or a restarted service) can come back. */
  readonly hostGraceMs: number;
  /** Longest life of a room, connected or not; after it the code stops working. */
  readonly roomMaxAgeMs: number;
  /** A join's life: the guest's wait for the answer plus the trickle that follows. */
  readonly joinTtlMs: number;
  /** Messages per source address. */
  readonly messageRate: RateLimit;
  /** New connections per source address. */
  readonly connectRate: RateLimit;
  /** Refused messages (malformed, rate-limited, not allowed) after which a connection is closed. */
  readonly maxStrikes: number;
  /** Lifetime of minted TURN credentials, seconds. */
  readonly turnTtlSeconds: number;
}

/** The defaults. */
export const DEFAULT_RENDEZVOUS_LIMITS: RendezvousServiceLimits = {
  maxRooms: 2000,
  maxPendingJoinsPerRoom: 8,
  maxJoinsPerConnection: 4,
  maxConnections: 4000,
  maxConnectionsPerAddress: 16,
  hostGraceMs: 60_000,
  roomMaxAgeMs: 24 * 60 * 60_000,
  joinTtlMs: 60_000,
  messageRate: { burst: 40, perSecond: 10 },
  connectRate: { burst: 10, perSecond: 1 },
  maxStrikes: 20,
  turnTtlSeconds: 6 * 60 * 60,
};

/** How often expired rooms and joins are swept out. */
export const RENDEZVOUS_SWEEP_MS = 1000;
