import { describe, expect, it } from 'vitest';
import { RoomCodeFormat, encode, formatPartialRoomCode } from '../../../shared/roomCode';

describe('formatPartialRoomCode', () => {
  it('groups, folds case and counts what is left while typing', () => {
    expect(formatPartialRoomCode('')).toMatchObject({ text: '', typed: 0, remaining: 10, complete: false, caret: 0 });
    expect(formatPartialRoomCode('0q4')).toMatchObject({ text: '0Q4', typed: 3, remaining: 7, caret: 3 });
    // No trailing separator after a full group, so backspace never fights the formatter.
    expect(formatPartialRoomCode('0q4t4')).toMatchObject({ text: '0Q4T4', remaining: 5, caret: 5 });
    expect(formatPartialRoomCode('0q4t4t')).toMatchObject({ text: '0Q4T4-T', remaining: 4, caret: 7 });
  });

  it('re-groups whatever separators and spaces the user typed', () => {
    expect(formatPartialRoomCode('0q 4t-4t1.y').text).toBe('0Q4T4-T1Y');
    const hex = new RoomCodeFormat({ alphabet: '0123456789ABCDEF', groupSize: 3, groupSeparator: ' ' });
    expect(formatPartialRoomCode('260-cc7-b', hex).text).toBe('260 CC7 B');
  });

  it('decodes a complete code and reports the address', () => {
    const result = formatPartialRoomCode('0q4t4t1yfx');
    expect(result).toMatchObject({ text: '0Q4T4-T1YFX', complete: true, remaining: 0, tooLong: false });
    expect(result.address).toEqual({ host: '23.38.137.160', port: 63997 });
    expect(result.error).toBeUndefined();
  });

  it('reports a complete code that does not decode instead of throwing', () => {
    const result = formatPartialRoomCode('ZZZZZZZZZZ');
    expect(result.complete).toBe(true);
    expect(result.address).toBeUndefined();
    expect(result.error?.reason).toBe('out-of-range');
    const checked = new RoomCodeFormat({ checkCharacter: true });
    const good = encode('23.38.137.160', 63997, checked);
    const bad = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
    expect(formatPartialRoomCode(good, checked).address).toEqual({ host: '23.38.137.160', port: 63997 });
    expect(formatPartialRoomCode(bad, checked).error?.reason).toBe('check-mismatch');
  });

  it('flags a code that is too long without dropping characters', () => {
    const result = formatPartialRoomCode('0Q4T4T1YFXAB');
    expect(result).toMatchObject({ text: '0Q4T4-T1YFX-AB', typed: 12, remaining: 0, complete: false, tooLong: true });
  });

  it('leaves out characters outside the alphabet and says where they were', () => {
    const result = formatPartialRoomCode('0Q!4U');
    expect(result.text).toBe('0Q4');
    expect(result.rejected).toEqual([
      { character: '!', position: 3 },
      { character: 'U', position: 5 },
    ]);
  });

  it('keeps the caret beside the same character when editing in the middle', () => {
    // Typed "0Q4T4T1" then moved the caret after "0Q4T4T" (index 6 of the raw value "0Q4T4-T1" is after 'T').
    expect(formatPartialRoomCode('0Q4T4-T1', undefined, 7).caret).toBe(7);
    // Raw input without separators: caret after the 6th character lands after the inserted separator.
    expect(formatPartialRoomCode('0q4t4t1', undefined, 6)).toMatchObject({ text: '0Q4T4-T1', caret: 7 });
    // Caret at 5 (end of first group) stays before the separator.
    expect(formatPartialRoomCode('0q4t4t1', undefined, 5).caret).toBe(5);
    // Rejected characters before the caret do not count.
    expect(formatPartialRoomCode('0!q', undefined, 2).caret).toBe(1);
  });

  it('measures the caret in UTF-16 units for astral alphabets', () => {
    const dice = new RoomCodeFormat({ alphabet: '🎲🃏', groupSize: 2, groupSeparator: '|' });
    const result = formatPartialRoomCode('🎲🃏🎲', dice, 4);
    expect(result.text).toBe('🎲🃏|🎲');
    expect(result.caret).toBe(4);
    expect(formatPartialRoomCode('🎲🃏🎲', dice).caret).toBe('🎲🃏|🎲'.length);
  });
});
