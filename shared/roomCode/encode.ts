import { checkDigit } from './checkCharacter';
import { parseIpv4 } from './ipv4';
import { RoomCodeError, RoomCodeErrorReason } from './roomCodeError';
import { DEFAULT_ROOM_CODE_FORMAT, type RoomCodeFormat } from './roomCodeFormat';

/** Digits of `value` in base `base`, most significant first, left-padded with zeros to `length`. */
function toDigits(value: number, base: number, length: number): number[] {
  const digits = new Array<number>(length).fill(0);
  let rest = value;
  for (let index = length - 1; index >= 0 && rest > 0; index -= 1) {
    digits[index] = rest % base;
    rest = Math.floor(rest / base);
  }
  return digits;
}

/**
 * Encodes an IPv4 address and port as a room code, identical to the reference's `encode` for the same format.
 * Only dotted-quad IPv4 is accepted here; host names are resolved in main/ (encodeRoomCodeForHost).
 */
export function encode(host: string, port: number, format: RoomCodeFormat = DEFAULT_ROOM_CODE_FORMAT): string {
  const ip = typeof host === 'string' ? parseIpv4(host) : undefined;
  if (ip === undefined) {
    throw new RoomCodeError(
      RoomCodeErrorReason.INVALID_HOST,
      `room codes carry an IPv4 address like 192.168.1.20, got ${JSON.stringify(host)}; resolve host names first`,
    );
  }
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RoomCodeError(RoomCodeErrorReason.INVALID_PORT, `port must be an integer from 0 to 65535, got ${port}`);
  }
  const base = format.symbols.length;
  const digits = toDigits(ip * 65536 + port, base, format.dataCharCount);
  if (format.checkCharacter) digits.push(checkDigit(digits, base));
  return format.group(digits.map((digit) => format.symbols[digit] ?? ''));
}
