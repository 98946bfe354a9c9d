import { describe, expect, it } from 'vitest';
import { RoomCodeFormat, decode, encode, formatIpv4 } from '../../../shared/roomCode';
import { SeededRandom } from '../../../shared/random/prng';

// Characters to draw alphabets from: ASCII, a few non-ASCII letters and one astral symbol (two UTF-16 units).
const POOL = Array.from('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzÄÖÜßéèçøæ@#%&*+=?!🎲');
const SEPARATORS = ['', '-', ' ', '.', ' · ', '/'];

function randomFormat(random: SeededRandom): RoomCodeFormat {
  const size = 2 + random.int(POOL.length - 1);
  const shuffled = [...POOL];
  for (let i = shuffled.length - 1; i > 0; i -= 1) {
    const j = random.int(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j] as string, shuffled[i] as string];
  }
  const alphabet = shuffled.slice(0, size).join('');
  const separator = SEPARATORS[random.int(SEPARATORS.length)] ?? '';
  const usable = Array.from(separator).every((c) => !alphabet.includes(c));
  const checkCharacter = size >= 3 && size % 4 !== 2 && random.next() < 0.5;
  return new RoomCodeFormat({
    alphabet,
    groupSize: 1 + random.int(8),
    groupSeparator: usable ? separator : '',
    checkCharacter,
  });
}

function randomAddress(random: SeededRandom): { host: string; port: number } {
  return { host: formatIpv4(random.int(2 ** 32)), port: random.int(65536) };
}

describe('room code round trips (seeded)', () => {
  it('decodes what it encodes for random addresses in the default format', () => {
    const random = new SeededRandom(0x5eed);
    for (let i = 0; i < 2000; i += 1) {
      const address = randomAddress(random);
      const code = encode(address.host, address.port);
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
      expect(decode(code)).toEqual(address);
    }
  });

  it('decodes what it encodes for random formats, with and without a check character', () => {
    const random = new SeededRandom(20240611);
    let withCheck = 0;
    for (let f = 0; f < 300; f += 1) {
      const format = randomFormat(random);
      if (format.checkCharacter) withCheck += 1;
      for (let i = 0; i < 20; i += 1) {
        const address = randomAddress(random);
        const code = encode(address.host, address.port, format);
        expect(decode(code, format), `${format.alphabet} ${code}`).toEqual(address);
        // Grouping is exactly as configured: full groups, then the remainder.
        const groups = format.groupSeparator ? code.split(format.groupSeparator) : [code];
        const sizes = groups.map((group) => Array.from(group).length);
        const expected = format.groupSeparator
          ? Array.from({ length: Math.ceil(format.charCount / format.groupSize) }, (_, g) =>
              Math.min(format.groupSize, format.charCount - g * format.groupSize),
            )
          : [format.charCount];
        expect(sizes).toEqual(expected);
      }
      // Extremes of the 48-bit range.
      expect(decode(encode('0.0.0.0', 0, format), format)).toEqual({ host: '0.0.0.0', port: 0 });
      const top = '255.255.255.255'; // a value only, never sent
      expect(decode(encode(top, 65535, format), format)).toEqual({ host: top, port: 65535 });
    }
    expect(withCheck).toBeGreaterThan(50);
  });
});
