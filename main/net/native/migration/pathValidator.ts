/** A UDP endpoint a native connection may be reached at (an address and a port). */
export interface PathAddress {
  readonly address: string;
  readonly port: number;
}

/** Limits of path validation; defaults are in {@link PATH_LIMITS}. */
export interface PathLimits {
  /** Unproven addresses tracked at once; a new one evicts the oldest (so a spoofer cannot shut a real one out). */
  maxCandidates: number;
  /** Seconds between two challenges to one address. */
  retryInterval: number;
  /** Challenges sent to one address at most. */
  maxTries: number;
  /** Bytes sent to an unproven address, at most this many times what it sent us (QUIC's anti-amplification). */
  amplification: number;
}

/** Path validation's defaults. */
export const PATH_LIMITS: PathLimits = { maxCandidates: 4, retryInterval: 0.1, maxTries: 16, amplification: 3 };

interface Candidate extends PathAddress {
  /** The challenge's random bytes: only a receiver at this address sees them. */
  readonly data: Uint8Array;
  lastSent: number;
  tries: number;
  bytesIn: number;
  bytesOut: number;
}

/**
 * Decides when a native connection challenges a new address and when the address is proven (as QUIC's path
 * validation). Datagrams reach it only once authenticated and not replayed, so the address they came from is
 * either the peer's new one or a third party's replaying a datagram it captured; only the first can answer the
 * challenge from there. Pure logic: time and randomness come in.
 */
export class PathValidator {
  private candidates: Candidate[] = [];

  constructor(
    private readonly random: (size: number) => Uint8Array,
    private readonly limits: PathLimits = PATH_LIMITS,
  ) {}

  /** Addresses challenged and not yet proven. */
  get pending(): number {
    return this.candidates.length;
  }

  /**
   * An authenticated datagram of `size` bytes arrived from `path`, which is not the connection's. `newest`: its
   * packet number is newer than any received (only that starts a validation: a reordered old one does not).
   * Returns the challenge data to send to `path` now (in a datagram of `challengeSize` bytes), or undefined when
   * none is due: retried too recently, too often, or over the amplification limit.
   */
  heard(path: PathAddress, size: number, newest: boolean, now: number, challengeSize: number): Uint8Array | undefined {
    let candidate = this.find(path);
    if (!candidate) {
      if (!newest) return undefined;
      if (this.candidates.length >= this.limits.maxCandidates) this.candidates.shift();
      candidate = {
        address: path.address,
        port: path.port,
        data: this.random(8),
        lastSent: -Infinity,
        tries: 0,
        bytesIn: 0,
        bytesOut: 0,
      };
      this.candidates.push(candidate);
    }
    candidate.bytesIn += size;
    if (!newest || candidate.tries >= this.limits.maxTries) return undefined;
    if (now - candidate.lastSent < this.limits.retryInterval) return undefined;
    if (candidate.bytesOut + challengeSize > this.limits.amplification * candidate.bytesIn) return undefined;
    candidate.tries += 1;
    candidate.lastSent = now;
    candidate.bytesOut += challengeSize;
    return candidate.data;
  }

  /**
   * A PATH_RESPONSE carrying `data` arrived from `path`: true when it echoes the challenge sent to that very
   * address (the path is proven; every pending validation ends). An echo arriving from elsewhere proves nothing.
   */
  answered(path: PathAddress, data: Uint8Array): boolean {
    const candidate = this.find(path);
    if (!candidate || !sameBytes(candidate.data, data)) return false;
    this.candidates = [];
    return true;
  }

  private find(path: PathAddress): Candidate | undefined {
    for (const c of this.candidates) if (c.address === path.address && c.port === path.port) return c;
    return undefined;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
