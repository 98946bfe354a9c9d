import { randomBytes } from 'node:crypto';
import { RESUME_TOKEN, checkResumeToken, encodeResumeToken, type IssuedSeat, type ResumeVerdict } from './resumeToken';

/** How long a resume token lives by default: a room's longest life (24 h), so a token outlives no room. */
export const RESUME_TOKEN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Options of {@link ResumeTokens}. */
export interface ResumeTokensOptions {
  /** Milliseconds on the room's clock. */
  readonly now: () => number;
  /** Random bytes; default node:crypto's. Tests inject their own to make tokens exact. */
  readonly random?: (bytes: number) => Buffer;
  /** Default {@link RESUME_TOKEN_MAX_AGE_MS}. */
  readonly maxAgeMs?: number;
}

/**
 * A room's resume tokens: its own random id and key, and the one current token of each seat. A token is given
 * at admission and again after each resume (a redeemed one is spent), bound to the seat and the guest's IP.
 */
export class ResumeTokens {
  private readonly roomId: Buffer;
  private readonly key: Buffer;
  private readonly random: (bytes: number) => Buffer;
  private readonly maxAgeMs: number;
  private readonly seats = new Map<number, IssuedSeat>();

  constructor(private readonly options: ResumeTokensOptions) {
    this.random = options.random ?? randomBytes;
    this.maxAgeMs = options.maxAgeMs ?? RESUME_TOKEN_MAX_AGE_MS;
    this.roomId = this.random(RESUME_TOKEN.ROOM_ID_BYTES);
    this.key = this.random(32);
  }

  /** A fresh token for `seat`, bound to `address` (the guest's IP); any earlier token of the seat stops working. */
  issue(seat: number, address: string): string {
    const nonce = this.random(RESUME_TOKEN.NONCE_BYTES);
    this.seats.set(seat, { nonce, address });
    const issuedAtSec = Math.floor(this.options.now() / 1000);
    return encodeResumeToken(this.key, { roomId: this.roomId, seat, issuedAtSec, nonce });
  }

  /** Checks a token presented from `address`; a good one is spent, so the caller issues the seat a new one. */
  redeem(token: unknown, address: string): ResumeVerdict {
    const verdict = checkResumeToken(token, {
      roomId: this.roomId,
      key: this.key,
      nowMs: this.options.now(),
      maxAgeMs: this.maxAgeMs,
      address,
      seatOf: (seat) => this.seats.get(seat),
    });
    if (verdict.ok) this.seats.delete(verdict.seat);
    return verdict;
  }

  /** The seat is gone (left, removed, room closed): its token answers nothing any more. */
  revoke(seat: number): void {
    this.seats.delete(seat);
  }
}
