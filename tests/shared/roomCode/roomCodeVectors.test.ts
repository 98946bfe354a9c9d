import { describe, expect, it } from 'vitest';
import fixture from '../../fixtures/room-codes.json';
import { RoomCodeFormat, decode, encode } from '../../../shared/roomCode';

interface Vector {
  format: string;
  alphabet: string;
  group_size: number;
  group_separator: string;
  host: string;
  port: number;
  code: string;
  char_count: number;
}

const vectors: Vector[] = fixture.vectors;

function formatOf(vector: Vector): RoomCodeFormat {
  return new RoomCodeFormat({
    alphabet: vector.alphabet,
    groupSize: vector.group_size,
    groupSeparator: vector.group_separator,
  });
}

const label = (v: Vector) => `${v.format} ${v.host}:${v.port} -> ${v.code}`;

describe('room codes match the reference vectors', () => {
  it('covers every format in the fixture', () => {
    expect(vectors).toHaveLength(30);
    expect(new Set(vectors.map((v) => v.format))).toEqual(
      new Set(['default', 'lower433', 'hex3', 'nosep', 'letters6']),
    );
  });

  it.each(vectors.map((v) => [label(v), v] as const))('encodes %s', (_name, vector) => {
    expect(encode(vector.host, vector.port, formatOf(vector))).toBe(vector.code);
  });

  it.each(vectors.map((v) => [label(v), v] as const))('decodes %s', (_name, vector) => {
    expect(decode(vector.code, formatOf(vector))).toEqual({ host: vector.host, port: vector.port });
  });

  it.each(vectors.map((v) => [label(v), v] as const))('has the reference char_count for %s', (_name, vector) => {
    expect(formatOf(vector).charCount).toBe(vector.char_count);
    expect(formatOf(vector).dataCharCount).toBe(vector.char_count);
  });

  it('uses the default format when none is given', () => {
    for (const vector of vectors.filter((v) => v.format === 'default')) {
      expect(encode(vector.host, vector.port)).toBe(vector.code);
      expect(decode(vector.code)).toEqual({ host: vector.host, port: vector.port });
    }
  });

  it('ignores whitespace, any separator character and (for single-case alphabets) case when decoding', () => {
    const upper = new RoomCodeFormat();
    expect(decode('  0q4t4 t1yfx\n', upper)).toEqual({ host: '23.38.137.160', port: 63997 });
    expect(decode('0Q4-T4T-1YF-X', upper)).toEqual({ host: '23.38.137.160', port: 63997 });
    const lower = new RoomCodeFormat({ alphabet: '0123456789abcdefghjkmnpqrstvwxyz', groupSize: 4 });
    expect(decode('7QWF-TMP7-DN', lower)).toEqual({ host: '247.227.245.75', port: 7605 });
    // Separator characters of a multi-character separator are each stripped, as in the reference.
    const fancy = new RoomCodeFormat({ groupSeparator: ' / ' });
    expect(encode('23.38.137.160', 63997, fancy)).toBe('0Q4T4 / T1YFX');
    expect(decode('0Q4T4/T1YFX', fancy)).toEqual({ host: '23.38.137.160', port: 63997 });
  });

  it('round-trips codes between formats that differ only in separator', () => {
    const dash = new RoomCodeFormat();
    const none = new RoomCodeFormat({ groupSeparator: '' });
    const space = new RoomCodeFormat({ groupSeparator: ' ' });
    const dot = new RoomCodeFormat({ groupSeparator: '.' });
    const address = { host: '104.216.185.109', port: 60033 };
    for (const writer of [dash, none, space, dot]) {
      for (const reader of [dash, none, space, dot]) {
        expect(decode(encode(address.host, address.port, writer), reader)).toEqual(address);
      }
    }
  });

  it('treats common punctuation as a digit when the alphabet uses it', () => {
    const dotted = new RoomCodeFormat({ alphabet: '0123456789.', groupSeparator: ' ' });
    expect(dotted.isIgnorable('.')).toBe(false);
    expect(dotted.isIgnorable('-')).toBe(true);
    const code = encode('1.2.3.4', 5, dotted);
    expect(decode(code, dotted)).toEqual({ host: '1.2.3.4', port: 5 });
  });

  it('does not fold case for a mixed-case alphabet', () => {
    const base58 = new RoomCodeFormat({ alphabet: '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz' });
    expect(base58.caseFolding).toBe('none');
    const code = encode('10.0.0.7', 7777, base58);
    const swapped = [...code].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    expect(swapped).not.toBe(code);
    const decodedOrError = (() => {
      try {
        return decode(swapped, base58);
      } catch (error) {
        return error;
      }
    })();
    expect(decodedOrError).not.toEqual({ host: '10.0.0.7', port: 7777 });
  });
});
