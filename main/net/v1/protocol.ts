/** Fixed facts of the gale.net v1 wire protocol (see docs: gale-wire-v1). */
export const Wire = {
  /** Bytes in every datagram's header: channel(1) token(8) sequence(4) ack(4) ack_bitfield(4). */
  HEADER_SIZE: 21,
  /** Largest body the reference sends or accepts. */
  MAX_BODY_SIZE: 1200,
  /** The reference reads this many bytes per datagram; anything longer is not a v1 datagram. */
  MAX_DATAGRAM_SIZE: 21 + 1200 + 64,
  /** Sequences one header can acknowledge: `ack` itself plus 32 bits of history. */
  ACK_WINDOW: 33,
  /** Sequence numbers are unsigned 32-bit. */
  SEQUENCE_MODULUS: 2 ** 32,
} as const;

/** Message types the transport itself uses; applications must not send these. */
export const ReservedType = {
  CONNECT_REQUEST: '__connect_request__',
  CONNECT_ACCEPTED: '__connect_accepted__',
  PING: '__ping__',
  PONG: '__pong__',
  ACK: '__ack__',
  DISCONNECT: '__disconnect__',
  /** Our server's stateless answer to a native offer without a valid cookie (never sent to a reference client). */
  NATIVE_CHALLENGE: '__native_challenge__',
} as const;

/** One of the {@link ReservedType} strings. */
export type ReservedType = (typeof ReservedType)[keyof typeof ReservedType];

const reserved: ReadonlySet<string> = new Set(Object.values(ReservedType));

/** Whether a message type belongs to the transport rather than the application. */
export function isReservedType(type: string): boolean {
  return reserved.has(type);
}

/** Timing defaults of the reference, in seconds. */
export const Defaults = {
  HEARTBEAT_INTERVAL: 1.0,
  TIMEOUT: 5.0,
  CONNECT_TIMEOUT: 5.0,
  CONNECT_RETRY_INTERVAL: 0.5,
  /** RTT assumed for retransmission until one is measured (reference: 0.1 s). */
  INITIAL_RTT: 0.1,
} as const;
