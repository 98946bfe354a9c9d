export { ROOM_CODE_BITS, charCountFor } from './charCount';
export { checkDigit, hasValidCheckDigit, supportsCheckCharacter } from './checkCharacter';
export { decode, type RoomAddress } from './decode';
export { encode } from './encode';
export { formatPartialRoomCode, type PartialRoomCode } from './formatPartialCode';
export { formatIpv4, parseIpv4 } from './ipv4';
export { RoomCodeError, RoomCodeErrorReason, type RoomCodeErrorDetails } from './roomCodeError';
export {
  COMMON_SEPARATORS,
  CROCKFORD_BASE32,
  DEFAULT_ROOM_CODE_FORMAT,
  RoomCodeFormat,
  type RoomCodeCaseFolding,
  type RoomCodeFormatOptions,
} from './roomCodeFormat';
export type { RejectedCharacter } from './scanCode';
export {
  SHORT_CODE,
  SHORT_CODE_LENGTHS,
  completeShortCode,
  decodeShortCode,
  encodeShortCode,
  isShortCodeLength,
  prefixLengthOf,
  scanCrockford,
  type GuestSubnet,
  type ShortCodeParts,
  type ShortCodeResult,
  type ShortCodeUnavailable,
} from './shortCode';
export { FULL_CODE_LENGTH, joinCodeLength, parseJoinCode, type JoinCode } from './joinCode';
