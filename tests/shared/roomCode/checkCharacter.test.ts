import { describe, expect, it } from 'vitest';
import {
  checkDigit,
  checkQuasigroup,
  hasValidCheckDigit,
  supportsCheckCharacter,
} from '../../../shared/roomCode/checkCharacter';
import { RoomCodeError, RoomCodeFormat, decode, encode, formatIpv4 } from '../../../shared/roomCode';
import { SeededRandom } from '../../../shared/random/prng';

const SUPPORTED_SIZES = Array.from({ length: 62 }, (_, i) => i + 3).filter((n) => n % 4 !== 2);

describe('check character algebra', () => {
  it('supports sizes >= 3 except those that are 2 mod 4', () => {
    expect([2, 6, 10, 14, 58, 62].map(supportsCheckCharacter)).toEqual([false, false, false, false, false, false]);
    expect([3, 4, 5, 8, 9, 12, 16, 24, 31, 32, 36, 37, 64].every(supportsCheckCharacter)).toBe(true);
    expect(supportsCheckCharacter(1.5)).toBe(false);
    expect(() => checkDigit([1, 2], 10)).toThrow(RangeError);
    expect(() => hasValidCheckDigit([1, 2], 6)).toThrow(RangeError);
  });

  it.each(SUPPORTED_SIZES)('is a totally anti-symmetric quasigroup of order %i', (n) => {
    const table: number[][] = [];
    for (let x = 0; x < n; x += 1) {
      const row: number[] = [];
      for (let y = 0; y < n; y += 1) row.push(checkQuasigroup(n, x, y));
      table.push(row);
    }
    // Latin square: every row and column is a permutation (catches any single wrong digit).
    for (let i = 0; i < n; i += 1) {
      expect(new Set(table[i]).size).toBe(n);
      expect(new Set(table.map((row) => row[i])).size).toBe(n);
      expect(Math.max(...(table[i] ?? []))).toBe(n - 1);
    }
    // (c∘x)∘y ≠ (c∘y)∘x for x ≠ y (catches any swap of neighbours).
    for (let c = 0; c < n; c += 1) {
      for (let x = 0; x < n; x += 1) {
        for (let y = x + 1; y < n; y += 1) {
          const cx = table[c]?.[x] ?? -1;
          const cy = table[c]?.[y] ?? -1;
          if (table[cx]?.[y] === table[cy]?.[x]) throw new Error(`order ${n}: c=${c} x=${x} y=${y} collide`);
        }
      }
    }
  });

  it('produces a digit that validates, and only that digit validates', () => {
    const random = new SeededRandom(77);
    for (const n of [3, 4, 16, 24, 32, 36]) {
      for (let trial = 0; trial < 50; trial += 1) {
        const digits = Array.from({ length: 1 + random.int(12) }, () => random.int(n));
        const check = checkDigit(digits, n);
        expect(check).toBeGreaterThanOrEqual(0);
        expect(check).toBeLessThan(n);
        for (let other = 0; other < n; other += 1) {
          expect(hasValidCheckDigit([...digits, other], n)).toBe(other === check);
        }
      }
    }
  });
});

function decodes(code: string, format: RoomCodeFormat): boolean {
  try {
    decode(code, format);
    return true;
  } catch (error) {
    if (!(error instanceof RoomCodeError)) throw error;
    return false;
  }
}

describe('room codes with a check character', () => {
  const formats = [
    new RoomCodeFormat({ checkCharacter: true }),
    new RoomCodeFormat({ alphabet: '0123456789ABCDEF', groupSize: 4, checkCharacter: true }),
    new RoomCodeFormat({
      alphabet: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
      groupSize: 6,
      groupSeparator: '.',
      checkCharacter: true,
    }),
    new RoomCodeFormat({ alphabet: '0123456789X', groupSize: 4, groupSeparator: ' ', checkCharacter: true }),
  ];

  it.each(formats.map((f) => [f.alphabet, f] as const))(
    'in alphabet %s, catches every single wrong character and every swap of neighbours',
    (_alphabet, format) => {
      const random = new SeededRandom(format.symbols.length);
      for (let trial = 0; trial < 25; trial += 1) {
        const host = formatIpv4(random.int(2 ** 32));
        const port = random.int(65536);
        const symbols = Array.from(encode(host, port, format).split(format.groupSeparator).join(''));
        expect(symbols).toHaveLength(format.charCount);
        expect(decode(symbols.join(''), format)).toEqual({ host, port });
        for (let i = 0; i < symbols.length; i += 1) {
          for (const replacement of format.symbols) {
            if (replacement === symbols[i]) continue;
            const typo = symbols.with(i, replacement).join('');
            if (decodes(typo, format)) throw new Error(`substitution at ${i} in ${symbols.join('')} not caught`);
          }
          const next = symbols[i + 1];
          const here = symbols[i];
          if (next !== undefined && here !== undefined && next !== here) {
            const swapped = symbols
              .with(i, next)
              .with(i + 1, here)
              .join('');
            if (decodes(swapped, format)) throw new Error(`swap at ${i} in ${symbols.join('')} not caught`);
          }
        }
      }
    },
  );

  it('adds exactly one character and keeps the data characters identical to the plain format', () => {
    const plain = new RoomCodeFormat({ groupSeparator: '' });
    const checked = new RoomCodeFormat({ groupSeparator: '', checkCharacter: true });
    expect(checked.charCount).toBe(plain.charCount + 1);
    expect(checked.dataCharCount).toBe(plain.charCount);
    const code = encode('23.38.137.160', 63997, checked);
    expect(code.slice(0, -1)).toBe('0Q4T4T1YFX');
  });
});
