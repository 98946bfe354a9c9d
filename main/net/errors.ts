import type { ConnectFailure } from './departure';

/** A message body larger than its connection can carry (gale.net v1: 1200 bytes; native: the configured maximum). */
export class PayloadTooLargeError extends Error {
  override name = 'PayloadTooLargeError';
  constructor(
    readonly messageType: string,
    readonly size: number,
    readonly limit: number,
  ) {
    super(
      limit === 1200
        ? `message "${messageType}" is ${size} bytes; gale.net v1 carries at most ${limit} bytes per message`
        : `message "${messageType}" is ${size} bytes; this connection carries at most ${limit} bytes per message`,
    );
  }
}

/** A UDP port that could not be bound, with the port named. */
export class BindError extends Error {
  override name = 'BindError';
  constructor(
    readonly port: number,
    readonly host: string,
    readonly code: string | undefined,
    detail: string,
  ) {
    super(
      code === 'EADDRINUSE'
        ? `UDP port ${port} on ${host} is already in use by another program (or another LAN Party host)`
        : code === 'EACCES'
          ? `not allowed to bind UDP port ${port} on ${host} (permission denied)`
          : `could not bind UDP port ${port} on ${host}: ${detail}`,
    );
  }
}

/** Too many messages waiting to be sent reliably to one peer. */
export class SendQueueFullError extends Error {
  override name = 'SendQueueFullError';
  constructor(readonly limit: number) {
    super(`reliable send queue is full (${limit} messages waiting): the peer is not keeping up`);
  }
}

/** Why a connect attempt failed: `kind` to branch on, `reason` in words. */
export class ConnectError extends Error {
  override name = 'ConnectError';
  /** `cause`: what failed underneath, when it was an error of its own (the socket seam's `openSocket` rejecting). */
  constructor(
    readonly reason: string,
    readonly kind: ConnectFailure,
    cause?: unknown,
  ) {
    super(reason, cause === undefined ? undefined : { cause });
  }
}
