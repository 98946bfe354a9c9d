import type { RoomCodeFormat } from './roomCodeFormat';

/** A character of typed input that is neither in the alphabet nor ignorable. */
export interface RejectedCharacter {
  readonly character: string;
  /** 1-based position in the input, counted in characters (code points). */
  readonly position: number;
}

/** Typed input reduced to alphabet digits. */
export interface ScannedCode {
  /** Digit values in order. */
  readonly digits: readonly number[];
  /** UTF-16 offset just after each digit in the input, to map a text-field caret. */
  readonly ends: readonly number[];
  /** Characters that are not in the alphabet, in input order. */
  readonly rejected: readonly RejectedCharacter[];
}

/** Reads typed input: skips whitespace and separator characters, folds case, and keeps the rest as digits. */
export function scanCode(input: string, format: RoomCodeFormat): ScannedCode {
  const digits: number[] = [];
  const ends: number[] = [];
  const rejected: RejectedCharacter[] = [];
  let position = 0;
  let offset = 0;
  for (const character of input) {
    position += 1;
    offset += character.length;
    if (format.isIgnorable(character)) continue;
    const digit = format.digitOf(character);
    if (digit === undefined) {
      rejected.push({ character, position });
    } else {
      digits.push(digit);
      ends.push(offset);
    }
  }
  return { digits, ends, rejected };
}
