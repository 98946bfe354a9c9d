import { DropReason } from './stats';
import type { ReceivedHeader } from './header';
import { Wire } from './protocol';
import type { DecodedMessage, Serializer } from './serialization';
import { CHANNEL_OF_V1_WIRE, V1_CONTROL_WIRE } from './v1Channels';

// Module-level copies of imported constants: under a CommonJS transpiler (tsx, vitest) each use of an
// imported binding is a getter call, which shows in the per-datagram profile.
const { HEADER_SIZE, MAX_DATAGRAM_SIZE } = Wire;
const { TOO_SHORT, TOO_LONG, UNKNOWN_CHANNEL, UNKNOWN_SOURCE, BAD_TOKEN, BAD_BODY } = DropReason;
const CONTROL = V1_CONTROL_WIRE;
const CHANNEL_OF_WIRE = CHANNEL_OF_V1_WIRE;

/** What {@link V1DatagramReader.read} found a datagram to be. */
export const V1Kind = { DROP: 0, HANDSHAKE: 1, MESSAGE: 2 } as const;

/** A datagram to count as dropped, and why. */
export interface V1Drop {
  readonly kind: typeof V1Kind.DROP;
  readonly reason: DropReason;
}

/** A handshake datagram (a connect request to a server; a challenge or accept to a client), body decoded. */
export interface V1Handshake {
  readonly kind: typeof V1Kind.HANDSHAKE;
  /** The header's token (built on request: only handshakes need it as a bigint). */
  readonly token: bigint;
  readonly message: DecodedMessage;
}

/** A datagram for the connection at its source: token matched, body decoded. The header fields are on it. */
export interface V1Message extends ReceivedHeader {
  readonly kind: typeof V1Kind.MESSAGE;
  readonly message: DecodedMessage;
}

/** One checked gale.net v1 datagram. Valid until the reader's next `read`: it is the reader itself. */
export type V1Datagram = V1Drop | V1Handshake | V1Message;

/** Which end reads: a server takes connect requests (token 0) from anyone, a client only answers to its request. */
export type V1Role = 'server' | 'client';

const NO_MESSAGE: DecodedMessage = { type: '', payload: {} };

/** The big-endian u32 at `at`. */
const u32 = (d: Uint8Array, at: number): number =>
  ((d[at]! << 24) | (d[at + 1]! << 16) | (d[at + 2]! << 8) | d[at + 3]!) >>> 0;

/**
 * The checks every v1 datagram passes before it reaches a connection or the handshake, in the order the drop
 * reasons are counted: size, channel, source and token, body. One reader per endpoint; it keeps the fields of the
 * datagram just read on itself (a header object, a DataView and a bigint per datagram showed in the profile).
 */
export class V1DatagramReader {
  kind: (typeof V1Kind)[keyof typeof V1Kind] = V1Kind.DROP;
  reason: DropReason = TOO_SHORT;
  /** The header's channel byte (v1Channels.ts maps it to a channel). */
  channel = 0;
  sequence = 0;
  ack = 0;
  ackBitfield = 0;
  message: DecodedMessage = NO_MESSAGE;
  /** The header token's high and low 32 bits (read even when the source is unknown: a v1 admission checks them). */
  tokenHigh = 0;
  tokenLow = 0;
  /** The last expected token and its halves: a client compares against one token, so it splits it once. */
  private expected = 0n;
  private expectedHigh = 0;
  private expectedLow = 0;
  private readonly server: boolean;

  /**
   * `admissionGate` (servers): asked about the source of each handshake from an address without a connection
   * before its body is decoded, `source` being what `read` was given; a reason drops the datagram for it. Under a
   * connect flood most requests are over their limits: checking them after decoding their JSON put `read` at 17%
   * of a host's thread under the hostile-lobby flood (1,024 sources), before it at 8% (6% less CPU a datagram).
   */
  constructor(
    role: V1Role,
    private readonly admissionGate?: (source: string) => DropReason | undefined,
  ) {
    this.server = role === 'server';
  }

  /** The header's unsigned 64-bit token. */
  get token(): bigint {
    return (BigInt(this.tokenHigh) << 32n) | BigInt(this.tokenLow);
  }

  /**
   * Checks `data` (already known not to be native) from a source whose connection holds `connectionToken`
   * (undefined: no connection there) and decodes its body with `serializer`; `source` (the sender's address) is
   * for the admission gate.
   */
  read(data: Uint8Array, connectionToken: bigint | undefined, serializer: Serializer, source = ''): V1Datagram {
    const length = data.length;
    if (length < HEADER_SIZE) return this.drop(TOO_SHORT);
    if (length > MAX_DATAGRAM_SIZE) return this.drop(TOO_LONG);
    const channel = data[0]!;
    if (CHANNEL_OF_WIRE[channel]! < 0) return this.drop(UNKNOWN_CHANNEL);
    this.channel = channel;
    this.tokenHigh = u32(data, 1);
    this.tokenLow = u32(data, 5);
    this.sequence = u32(data, 9);
    this.ack = u32(data, 13);
    this.ackBitfield = u32(data, 17);
    let handshake: boolean;
    if (this.server) {
      // A connect request: token 0 on the control channel, from anyone (a repeat from a peer gets the accept again).
      handshake = channel === CONTROL && this.tokenHigh === 0 && this.tokenLow === 0;
      if (!handshake) {
        if (connectionToken === undefined) return this.drop(UNKNOWN_SOURCE);
        if (!this.tokenIs(connectionToken)) return this.drop(BAD_TOKEN);
      } else if (connectionToken === undefined && this.admissionGate !== undefined) {
        const refused = this.admissionGate(source);
        if (refused !== undefined) return this.drop(refused);
      }
    } else {
      // Until connected, only the server's control-channel answers to our request.
      handshake = connectionToken === undefined;
      if (handshake ? channel !== CONTROL : !this.tokenIs(connectionToken!)) return this.drop(BAD_TOKEN);
    }
    try {
      this.message = serializer.deserialize(data.subarray(HEADER_SIZE));
    } catch {
      return this.drop(BAD_BODY);
    }
    this.kind = handshake ? V1Kind.HANDSHAKE : V1Kind.MESSAGE;
    return this as V1Datagram;
  }

  private drop(reason: DropReason): V1Datagram {
    this.kind = V1Kind.DROP;
    this.reason = reason;
    return this as V1Datagram;
  }

  private tokenIs(token: bigint): boolean {
    if (token !== this.expected) {
      this.expected = token;
      this.expectedHigh = Number(token >> 32n);
      this.expectedLow = Number(token & 0xffffffffn);
    }
    return this.tokenHigh === this.expectedHigh && this.tokenLow === this.expectedLow;
  }
}
