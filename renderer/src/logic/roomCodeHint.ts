import { decode, DEFAULT_ROOM_CODE_FORMAT, formatPartialRoomCode, RoomCodeError } from '../../../shared/roomCode';
import type { PartialRoomCode } from '../../../shared/roomCode';

/** The line under the code field: what is typed so far, what is wrong (which character, where), or where it leads. */
export interface RoomCodeHint {
  readonly tone: 'neutral' | 'error' | 'ok';
  readonly text: string;
  /** The code is complete and decodes. */
  readonly ready: boolean;
}

function sentence(text: string): string {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** Describes a typed room code. Pure; uses the same decoder as main, so the hint matches the join error. */
export function roomCodeHint(raw: string, partial: PartialRoomCode = formatPartialRoomCode(raw)): RoomCodeHint {
  const total = DEFAULT_ROOM_CODE_FORMAT.charCount;
  if (partial.rejected.length > 0) {
    try {
      decode(raw);
    } catch (error) {
      if (error instanceof RoomCodeError) return { tone: 'error', text: sentence(error.message), ready: false };
    }
  }
  if (partial.tooLong) {
    return { tone: 'error', text: `That is ${partial.typed} characters; a room code has ${total}.`, ready: false };
  }
  if (partial.error) return { tone: 'error', text: sentence(partial.error.message), ready: false };
  if (partial.address) {
    return { tone: 'ok', text: `Room at ${partial.address.host}:${partial.address.port}`, ready: true };
  }
  if (partial.typed === 0) return { tone: 'neutral', text: `${total} characters, like 3F7KQ-09XYZ`, ready: false };
  return { tone: 'neutral', text: `${partial.typed} of ${total} characters`, ready: false };
}

/**
 * The code inside pasted text ("Join my room: 3F7KQ-09XYZ!"): the last run of ten code characters, with or
 * without a separator after the fifth; the text as is when there is none.
 */
export function extractPastedCode(text: string): string {
  const matches = [...text.matchAll(/(?:^|[^0-9A-Za-z])([0-9A-Za-z]{5}[-\s._/]?[0-9A-Za-z]{5})(?![0-9A-Za-z])/g)];
  const last = matches[matches.length - 1]?.[1];
  return last ?? text.trim();
}

/** The next value of a code field: formatted (with the caret mapped) when every character is valid, else as typed. */
export function formatCodeField(raw: string, caret: number): { value: string; caret: number } {
  const partial = formatPartialRoomCode(raw, DEFAULT_ROOM_CODE_FORMAT, caret);
  // With a wrong character the field keeps exactly what was typed, so the error's position matches what is shown.
  if (partial.rejected.length > 0) return { value: raw, caret };
  return { value: partial.text, caret: partial.caret };
}
