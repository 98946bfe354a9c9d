/** Why a room code (or a format, or an address to encode) was refused. */
export const RoomCodeErrorReason = {
  /** The alphabet, group size or separator cannot make decodable codes. */
  INVALID_FORMAT: 'invalid-format',
  /** The code holds a character outside the format's alphabet. */
  INVALID_CHARACTER: 'invalid-character',
  /** The code has too few or too many alphabet characters. */
  WRONG_LENGTH: 'wrong-length',
  /** The code's check character does not match: a typo somewhere. */
  CHECK_MISMATCH: 'check-mismatch',
  /** The code's value is larger than 48 bits, so it names no address. */
  OUT_OF_RANGE: 'out-of-range',
  /** The host to encode is not a dotted-quad IPv4 address. */
  INVALID_HOST: 'invalid-host',
  /** The port to encode is not an integer in 0..65535. */
  INVALID_PORT: 'invalid-port',
} as const;

/** One of the {@link RoomCodeErrorReason} values. */
export type RoomCodeErrorReason = (typeof RoomCodeErrorReason)[keyof typeof RoomCodeErrorReason];

/** Extra facts for UIs: which character was wrong and where (1-based, counted in characters of the input). */
export interface RoomCodeErrorDetails {
  readonly character?: string;
  readonly position?: number;
}

/** Raised when a string is not a valid room code for a format, or a format/address cannot be used. */
export class RoomCodeError extends Error {
  override readonly name = 'RoomCodeError';
  /** Machine-readable cause, so a UI can react without parsing the message. */
  readonly reason: RoomCodeErrorReason;
  /** The offending character, for `invalid-character`. */
  readonly character: string | undefined;
  /** 1-based position of {@link character} in the string the user typed. */
  readonly position: number | undefined;

  constructor(reason: RoomCodeErrorReason, message: string, details: RoomCodeErrorDetails = {}) {
    super(message);
    this.reason = reason;
    this.character = details.character;
    this.position = details.position;
  }
}
