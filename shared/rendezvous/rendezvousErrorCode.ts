/**
 * Why a rendezvous request failed. The service sends the first group; the client adds `unreachable` and
 * `timeout` for a service it cannot reach or that does not answer in time.
 */
export const RendezvousErrorCode = {
  /** Not JSON, not a known message, a field out of bounds. */
  MALFORMED: 'malformed',
  /** Bigger than {@link RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES}. */
  TOO_LARGE: 'too-large',
  /** Another protocol version. */
  UNSUPPORTED_VERSION: 'unsupported-version',
  /** Too many requests from this address; try again later. */
  RATE_LIMITED: 'rate-limited',
  /** No such room: never registered, expired, or closed by its host. */
  ROOM_UNKNOWN: 'room-unknown',
  /** The room has as many guests waiting to be answered as it takes. */
  ROOM_FULL: 'room-full',
  /** The room id is held by another host (a different room secret). */
  ROOM_TAKEN: 'room-taken',
  /** The service holds as many rooms as it may. */
  SERVICE_FULL: 'service-full',
  /** The host turned the guest away (its reason follows). */
  REJECTED: 'rejected',
  /** The host's connection to the service dropped while the guest waited. */
  HOST_AWAY: 'host-away',
  /** A message names a join this connection is not part of, or comes in the wrong order. */
  NOT_ALLOWED: 'not-allowed',
  /** The host's key confirmation failed: it does not hold the code's secret, or someone is in between. */
  KEY_MISMATCH: 'key-mismatch',
  /** The client could not connect to the service (or lost it). */
  UNREACHABLE: 'unreachable',
  /** No answer in time. */
  TIMEOUT: 'timeout',
} as const;

/** One of the {@link RendezvousErrorCode} values. */
export type RendezvousErrorCode = (typeof RendezvousErrorCode)[keyof typeof RendezvousErrorCode];

/** The user-facing sentence for each code (the message from the service may add detail). */
export const RENDEZVOUS_ERROR_TEXT: Readonly<Record<RendezvousErrorCode, string>> = {
  malformed: 'The rendezvous service did not understand the request.',
  'too-large': 'The request was too large for the rendezvous service.',
  'unsupported-version': 'The rendezvous service speaks another protocol version; update LAN Party or the service.',
  'rate-limited': 'Too many requests to the rendezvous service from this address; wait a moment and try again.',
  'room-unknown':
    'That internet room does not exist any more (it expired or its host closed it), or the code is wrong.',
  'room-full': 'That internet room has too many players joining right now; try again in a moment.',
  'room-taken': 'The rendezvous service gave this room to another host.',
  'service-full': 'The rendezvous service is full; try again later.',
  rejected: 'The host turned the join down.',
  'host-away': 'The host lost its connection to the rendezvous service.',
  'not-allowed': 'The rendezvous service refused the request.',
  'key-mismatch':
    'The host could not prove it holds this code: check the code, or someone may be between you and the host.',
  unreachable: 'The rendezvous service cannot be reached: check its address in Settings and your internet connection.',
  timeout: 'The rendezvous service or the host did not answer in time.',
};

/** A failed rendezvous request: a code and a message fit to show. */
export class RendezvousError extends Error {
  override readonly name = 'RendezvousError';

  constructor(
    readonly code: RendezvousErrorCode,
    message: string = RENDEZVOUS_ERROR_TEXT[code],
  ) {
    super(message);
  }
}
