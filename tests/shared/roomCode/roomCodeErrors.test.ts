import { describe, expect, it } from 'vitest';
import { RoomCodeError, RoomCodeErrorReason, RoomCodeFormat, decode, encode } from '../../../shared/roomCode';

function caught(action: () => unknown): RoomCodeError {
  try {
    action();
  } catch (error) {
    if (error instanceof RoomCodeError) return error;
    throw error;
  }
  throw new Error('expected a RoomCodeError, nothing was thrown');
}

describe('RoomCodeFormat validation', () => {
  it.each([
    ['an empty alphabet', { alphabet: '' }, /at least 2 distinct/],
    ['a one-character alphabet', { alphabet: 'A' }, /at least 2 distinct/],
    ['a repeated character', { alphabet: 'ABCA' }, /repeats the character 'A'/],
    ['whitespace in the alphabet', { alphabet: 'AB C' }, /whitespace/],
    ['a separator character in the alphabet', { alphabet: '0123-', groupSeparator: '-' }, /share the character '-'/],
    ['group size 0', { groupSize: 0 }, /groupSize must be an integer >= 1, got 0/],
    ['a negative group size', { groupSize: -3 }, /groupSize/],
    ['a fractional group size', { groupSize: 2.5 }, /groupSize/],
    ['a NaN group size', { groupSize: Number.NaN }, /groupSize/],
    ['a check character on a size-10 alphabet', { alphabet: '0123456789', checkCharacter: true }, /10 does not work/],
    ['a check character on a size-2 alphabet', { alphabet: '01', checkCharacter: true }, /2 does not work/],
  ])('refuses %s', (_name, options, message) => {
    const error = caught(() => new RoomCodeFormat(options));
    expect(error.reason).toBe(RoomCodeErrorReason.INVALID_FORMAT);
    expect(error.message).toMatch(message);
  });

  it('refuses non-string alphabets from untyped callers', () => {
    expect(caught(() => new RoomCodeFormat({ alphabet: 42 as unknown as string })).reason).toBe('invalid-format');
  });

  it('accepts a two-character alphabet and a one-character group', () => {
    const binary = new RoomCodeFormat({ alphabet: '01', groupSize: 1, groupSeparator: '' });
    expect(binary.charCount).toBe(48);
    expect(decode(encode('128.0.0.1', 1, binary), binary)).toEqual({ host: '128.0.0.1', port: 1 });
  });

  it('is immutable', () => {
    const format = new RoomCodeFormat();
    expect(() => {
      (format as { groupSize: number }).groupSize = 2;
    }).toThrow(TypeError);
  });
});

describe('encode errors', () => {
  it.each([
    'example.com',
    'localhost',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3.04',
    ' 1.2.3.4',
    '::1',
    '',
    '1.2.3.-4',
  ])('refuses host %j with invalid-host', (host) => {
    const error = caught(() => encode(host, 80));
    expect(error.reason).toBe(RoomCodeErrorReason.INVALID_HOST);
    expect(error.message).toContain(JSON.stringify(host));
  });

  it.each([-1, 65536, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses port %s with invalid-port', (port) => {
    const error = caught(() => encode('10.0.0.1', port));
    expect(error.reason).toBe(RoomCodeErrorReason.INVALID_PORT);
    expect(error.message).toContain(String(port));
  });

  it('refuses a non-number port from untyped callers', () => {
    expect(caught(() => encode('10.0.0.1', '80' as unknown as number)).reason).toBe('invalid-port');
  });
});

describe('decode errors', () => {
  it('names the wrong character and its 1-based position in what was typed', () => {
    const error = caught(() => decode('0Q4T4-T1#FX'));
    expect(error.reason).toBe(RoomCodeErrorReason.INVALID_CHARACTER);
    expect(error.character).toBe('#');
    expect(error.position).toBe(9);
    expect(error.message).toContain("'#' at position 9");
    expect(error.message).toContain('0123456789ABCDEFGHJKMNPQRSTVWXYZ');
  });

  it('suggests the intended character for look-alikes the alphabet leaves out', () => {
    expect(caught(() => decode('OQ4T4-T1YFX')).message).toContain("'O' at position 1 (did you mean '0'?)");
    expect(caught(() => decode('0Q4T4-TIYFX')).message).toContain("(did you mean '1'?)");
    expect(caught(() => decode('0Q4T4-TUYFX')).message).toContain("(did you mean 'V'?)");
  });

  it('counts positions in characters, not UTF-16 units', () => {
    const error = caught(() => decode('🎲🎲X'));
    expect(error.character).toBe('🎲');
    expect(error.position).toBe(1);
  });

  it.each([
    ['', 0],
    ['0Q4T4', 5],
    ['0Q4T4-T1YF', 9],
    ['0Q4T4-T1YFX0', 11],
  ])('refuses %j as the wrong length', (code, count) => {
    const error = caught(() => decode(code));
    expect(error.reason).toBe(RoomCodeErrorReason.WRONG_LENGTH);
    expect(error.message).toContain(`has ${count} characters, expected 10`);
  });

  it.each(['80000-00000', 'ZZZZZ-ZZZZZ', '7ZZZZ-ZZZZZ'.replace('7', '8')])(
    'refuses %s: a value above 48 bits is an error, not a wrapped address',
    (code) => {
      const error = caught(() => decode(code));
      expect(error.reason).toBe(RoomCodeErrorReason.OUT_OF_RANGE);
      expect(error.message).toMatch(/48 bits/);
    },
  );

  it('accepts the largest 48-bit code and refuses the next one in other alphabets too', () => {
    const hex = new RoomCodeFormat({ alphabet: '0123456789ABCDEF', groupSize: 3, groupSeparator: ' ' });
    expect(decode('FFF FFF FFF FFF', hex)).toEqual({ host: '255.255.255.255', port: 65535 }); // a value only, never sent
    const letters = new RoomCodeFormat({ alphabet: 'ABCDEFGHJKLMNPQRSTUVWXYZ', groupSize: 6, groupSeparator: '.' });
    expect(decode('ELPCSX.BSHCR', letters)).toEqual({ host: '255.255.255.255', port: 65535 }); // a value only, never sent
    expect(caught(() => decode('ELPCSX.BSHCS', letters)).reason).toBe(RoomCodeErrorReason.OUT_OF_RANGE);
    expect(caught(() => decode('ZZZZZZ.ZZZZZ', letters)).reason).toBe(RoomCodeErrorReason.OUT_OF_RANGE);
  });

  it('refuses a code whose check character does not match', () => {
    const checked = new RoomCodeFormat({ checkCharacter: true });
    const code = encode('192.168.1.20', 7777, checked);
    expect(code).toMatch(/^.{5}-.{5}-.$/);
    const last = code.at(-1) === '0' ? '1' : '0';
    const error = caught(() => decode(code.slice(0, -1) + last, checked));
    expect(error.reason).toBe(RoomCodeErrorReason.CHECK_MISMATCH);
    // Without its check character the code is simply too short.
    expect(caught(() => decode(code.slice(0, -2), checked)).reason).toBe(RoomCodeErrorReason.WRONG_LENGTH);
  });

  it('refuses non-string input from untyped callers', () => {
    expect(caught(() => decode(12345 as unknown as string))).toBeInstanceOf(RoomCodeError);
  });

  it('is a RoomCodeError and an Error', () => {
    const error = caught(() => decode('!'));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('RoomCodeError');
  });
});
