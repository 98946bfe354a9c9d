import { decode, type RoomAddress } from './decode';
import { RoomCodeError } from './roomCodeError';
import { DEFAULT_ROOM_CODE_FORMAT, type RoomCodeFormat } from './roomCodeFormat';
import { scanCode, type RejectedCharacter } from './scanCode';

/** What to show while a user is typing a room code. */
export interface PartialRoomCode {
  /** The alphabet characters typed so far, case-folded and grouped; no trailing separator, nothing dropped. */
  readonly text: string;
  /** Alphabet characters typed so far. */
  readonly typed: number;
  /** Alphabet characters still missing; 0 once complete or too long. */
  readonly remaining: number;
  /** Exactly {@link RoomCodeFormat.charCount} characters typed. */
  readonly complete: boolean;
  /** More characters than a code has. */
  readonly tooLong: boolean;
  /** Typed characters that are not in the alphabet (left out of {@link text}). */
  readonly rejected: readonly RejectedCharacter[];
  /** Where the caret belongs in {@link text} (UTF-16 index, as a text field's selectionStart). */
  readonly caret: number;
  /** The decoded address, once the code is complete and valid. */
  readonly address?: RoomAddress;
  /** Why a complete code does not decode (check mismatch, out of range). */
  readonly error?: RoomCodeError;
}

/**
 * Formats a partly typed room code as the user types: folds case, drops separators and whitespace the user
 * typed, re-inserts the format's separators, and maps the caret (`caret` is a UTF-16 index into `input`,
 * default its end) so editing in the middle keeps the caret beside the same character.
 */
export function formatPartialRoomCode(
  input: string,
  format: RoomCodeFormat = DEFAULT_ROOM_CODE_FORMAT,
  caret: number = input.length,
): PartialRoomCode {
  const { digits, ends, rejected } = scanCode(input, format);
  const symbols = digits.map((digit) => format.symbols[digit] ?? '');
  const beforeCaret = ends.filter((end) => end <= caret).length;
  const typed = symbols.length;
  const base = {
    text: format.group(symbols),
    typed,
    remaining: Math.max(0, format.charCount - typed),
    complete: typed === format.charCount,
    tooLong: typed > format.charCount,
    rejected,
    caret: format.group(symbols.slice(0, beforeCaret)).length,
  };
  if (!base.complete || rejected.length > 0) return base;
  try {
    return { ...base, address: decode(symbols.join(''), format) };
  } catch (error) {
    if (error instanceof RoomCodeError) return { ...base, error };
    throw error;
  }
}
