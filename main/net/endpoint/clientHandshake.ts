import { packHeader } from '../v1/header';
import { ReservedType, Wire } from '../v1/protocol';
import { ConnectError } from '../errors';
import type { ConnectFailure } from '../departure';
import { decodeCookie } from '../native/handshake/connectCookie';
import {
  FALLBACK_CODEC,
  offerPayload,
  parseAccepted,
  recvWindowFor,
  type NativeParams,
} from '../native/handshake/negotiation';
import { deriveNativeKeys, generateNativeKeyPair, type NativeKeyPair } from '../native/protection/nativeKeys';
import type { DirectionKeys } from '../native/protection/packetProtection';
import { Native } from '../native/wire/nativeWire';
import type { ResolvedEndpointOptions } from './endpointOptions';

/** One `Client.connect` in progress. */
export interface Attempt {
  host: string;
  port: number;
  started: number;
  deadline: number;
  lastRequest: number;
  requests: number;
  /** The server's challenge cookie, echoed in every request after it arrived. */
  cookie?: Uint8Array;
  /** Our X25519 key pair for this attempt (native offers only), the same in every repeat of the offer. */
  keyPair?: NativeKeyPair;
  /** v1: the accept arrived and our first datagram with its token is out; connected once the server answers it. */
  accepted?: boolean;
  lastSocketError?: string;
  resolve: () => void;
  reject: (error: ConnectError) => void;
}

/** Why `connect` cannot start in `state` (undefined: it can). */
export function connectRefusal(state: string, port: number): string | undefined {
  if (state === 'closed') return 'client is closed';
  if (state !== 'idle') return `already ${state}`;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return `port must be 1–65535, got ${port}`;
  return undefined;
}

/** A `connect` that did not start: rejected with `reason`, and safe to ignore. */
export function refusedConnect(reason: string): Promise<void> {
  return handled(Promise.reject(new ConnectError(reason, 'refused')));
}

/** A new attempt, and the promise `connect` returns (safe to ignore), settled through the attempt. */
export function startAttempt(
  host: string,
  port: number,
  now: number,
  timeout: number,
): { attempt: Attempt; promise: Promise<void> } {
  let attempt!: Attempt;
  const promise = new Promise<void>((resolve, reject) => {
    attempt = {
      host,
      port,
      started: now,
      deadline: now + timeout,
      lastRequest: -Infinity,
      requests: 0,
      resolve,
      reject,
    };
  });
  return { attempt, promise: handled(promise) };
}

function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** Why an attempt gave up at its deadline (with a hint when the port was unreachable). */
export function timedOut(attempt: Attempt): string {
  const why = attempt.lastSocketError === 'ECONNREFUSED' ? ' (port unreachable: is the server running?)' : '';
  const seconds = +(attempt.deadline - attempt.started).toFixed(3);
  return `timed out after ${seconds} s: no answer from ${attempt.host}:${attempt.port}${why}`;
}

/** Why the attempt's socket could not open or connect. */
export function socketFailure(attempt: Attempt, error: unknown): { reason: string; kind: ConnectFailure } {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOTFOUND' || code === 'EAI_AGAIN'
    ? { reason: `could not resolve host "${attempt.host}"`, kind: 'unresolved' }
    : { reason: `could not connect: ${(error as Error).message}`, kind: 'socket-failed' };
}

/**
 * The attempt's next connect request (v1 framing, token 0): plain, or with a native offer carrying our key for this
 * attempt and, once the server challenged us, its cookie. Counts the request.
 */
export function connectRequestFor(
  attempt: Attempt,
  resolved: ResolvedEndpointOptions,
  recvBufferSize: number,
  now: number,
): Uint8Array {
  attempt.lastRequest = now;
  attempt.requests += 1;
  const native = resolved.native;
  if (native) attempt.keyPair ??= generateNativeKeyPair();
  const offer = native && {
    version: Native.VERSION,
    mtu: native.mtu,
    codec: native.serializer.name ?? FALLBACK_CODEC,
    maxMessage: native.maxMessageSize,
    recvWindow: recvWindowFor(recvBufferSize),
    cookie: attempt.cookie,
    key: attempt.keyPair!.publicKey,
  };
  const payload = offer ? offerPayload(offer, resolved.serializer, ReservedType.CONNECT_REQUEST) : {};
  const body = resolved.serializer.serialize(ReservedType.CONNECT_REQUEST, payload);
  const datagram = new Uint8Array(Wire.HEADER_SIZE + body.length);
  datagram.set(packHeader({ channel: 0, token: 0n, sequence: 0, ack: 0, ackBitfield: 0 }));
  datagram.set(body, Wire.HEADER_SIZE);
  return datagram;
}

/**
 * The server's native challenge: 'bad' when its cookie is malformed, 'repeat' for the cookie already taken (the
 * request echoing it is on its way), 'new' once the attempt holds it (send the request again).
 */
export function takeChallenge(attempt: Attempt, payload: Record<string, unknown>): 'bad' | 'repeat' | 'new' {
  const cookie = decodeCookie(payload.cookie);
  if (!cookie) return 'bad';
  if (attempt.cookie && Buffer.from(attempt.cookie).equals(cookie)) return 'repeat';
  attempt.cookie = cookie;
  return 'new';
}

/** What an accept agreed to: the native parameters and packet keys (none: a v1 server), or why it is unusable. */
export type Agreement = { agreed?: NativeParams; keys?: DirectionKeys } | { failure: string };

/** Reads the server's accept against what this attempt offered. */
export function readAccept(
  attempt: Attempt,
  resolved: ResolvedEndpointOptions,
  payload: Record<string, unknown>,
): Agreement {
  // No native parameters in the accept: the server is a gale.net (v1) server.
  const agreed = resolved.native ? parseAccepted(payload) : undefined;
  if (agreed === 'outdated') {
    return { failure: 'the server speaks an older native protocol (LAN Party versions differ): update both sides' };
  }
  const keys = agreed && attempt.keyPair ? deriveNativeKeys(attempt.keyPair, agreed.key, 'client') : undefined;
  if (agreed && !keys) return { failure: 'the server sent an unusable key in its accept' };
  return { agreed, keys };
}
