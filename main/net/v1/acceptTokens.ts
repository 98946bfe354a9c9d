/** Stateless v1 connection tokens: a server's accept carries one, and only a datagram echoing it creates the peer. */
import { createHmac, randomBytes } from 'node:crypto';

/** How {@link AcceptTokens} measures time and draws its key (both injectable so tests are exact). */
export interface AcceptTokensOptions {
  /** Current time in seconds. */
  readonly clock: () => number;
  /** Length of one time slot in seconds (default 5): a token admits in its slot and the next, so for 5–10 s. */
  readonly slotSeconds?: number;
  /** The server's secret, at least 16 bytes (default 32 bytes from the OS CSPRNG). */
  readonly randomKey?: () => Uint8Array;
}

/** Largest peer id a token can carry: the id travels in 32 bits. */
export const MAX_TOKEN_PEER_ID = 0xffff_ffff;

const MAC_TAG = 1;
const PAD_TAG = 2;

/**
 * Issues and checks v1 connection tokens without per-client state. A token is 64 bits: the low half is a keyed
 * MAC (HMAC-SHA256, a per-server random key) of the time slot, the client's address and port and the peer id;
 * the high half is the peer id masked by a keyed function of the low half. So the accept can name the peer id the
 * peer will have, the server keeps nothing until the client echoes the token from the address it was sent to, and
 * the token stays unguessable (64 bits) to an off-path sender once the connection is up. Forging an admission
 * for a spoofed address needs a 32-bit guess per datagram. Callers pass addresses in one canonical form.
 */
export class AcceptTokens {
  private readonly slotSeconds: number;
  private readonly key: Uint8Array;
  private readonly head = Buffer.alloc(11);
  private readonly padInput = Buffer.alloc(5);

  constructor(private readonly options: AcceptTokensOptions) {
    this.slotSeconds = options.slotSeconds ?? 5;
    if (!(Number.isFinite(this.slotSeconds) && this.slotSeconds > 0)) {
      throw new RangeError(`AcceptTokens: slotSeconds must be a positive number, got ${options.slotSeconds}`);
    }
    const key = (options.randomKey ?? (() => randomBytes(32)))();
    if (!(key instanceof Uint8Array) || key.byteLength < 16) {
      throw new RangeError('AcceptTokens: randomKey must return at least 16 bytes');
    }
    this.key = key;
  }

  /**
   * The token for an accept to `address`:`port` naming `peerId` (1 … {@link MAX_TOKEN_PEER_ID}); undefined for a
   * clock that returns a non-finite or negative time, and (odds 2^-64) when it would be 0n, a connect request's token.
   */
  issue(address: string, port: number, peerId: number): bigint | undefined {
    if (!(Number.isInteger(peerId) && peerId >= 1 && peerId <= MAX_TOKEN_PEER_ID)) {
      throw new RangeError(`peer id must be 1–${MAX_TOKEN_PEER_ID}, got ${peerId}`);
    }
    const slot = this.currentSlot();
    if (slot === undefined) return undefined;
    const low = this.mac(slot, address, port, peerId);
    const high = (peerId ^ this.pad(low)) >>> 0;
    if (high === 0 && low === 0) return undefined;
    return (BigInt(high) << 32n) | BigInt(low);
  }

  /**
   * The peer id of a token (its halves as the header carried them) issued to exactly this endpoint in the current
   * or the previous slot; 0 for anything else (forged, expired, for another endpoint). That a token admits once is
   * the caller's: its id is spent then (see PeerIds).
   */
  check(high: number, low: number, address: string, port: number): number {
    const slot = this.currentSlot();
    if (slot === undefined) return 0;
    const peerId = (high ^ this.pad(low)) >>> 0;
    if (peerId === 0) return 0;
    if (this.mac(slot, address, port, peerId) === low) return peerId;
    if (slot > 0 && this.mac(slot - 1, address, port, peerId) === low) return peerId;
    return 0;
  }

  private currentSlot(): number | undefined {
    const now = this.options.clock();
    if (!(Number.isFinite(now) && now >= 0)) return undefined;
    return Math.floor(now / this.slotSeconds) >>> 0;
  }

  /** The first 32 bits of HMAC(tag ‖ slot ‖ port ‖ peer id ‖ address); the address goes last, so fields never blur. */
  private mac(slot: number, address: string, port: number, peerId: number): number {
    const head = this.head;
    head[0] = MAC_TAG;
    head.writeUInt32BE(slot >>> 0, 1);
    head.writeUInt16BE(port & 0xffff, 5);
    head.writeUInt32BE(peerId, 7);
    return createHmac('sha256', this.key).update(head).update(address, 'utf8').digest().readUInt32BE(0);
  }

  /** A keyed 32-bit mask derived from the MAC half, hiding the peer id in the token's other half. */
  private pad(low: number): number {
    const input = this.padInput;
    input[0] = PAD_TAG;
    input.writeUInt32BE(low >>> 0, 1);
    return createHmac('sha256', this.key).update(input).digest().readUInt32BE(0);
  }
}
