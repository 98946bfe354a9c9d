import { describe, expect, it } from 'vitest';
import {
  CROCKFORD_BASE32,
  RoomCodeError,
  SHORT_CODE,
  completeShortCode,
  decodeShortCode,
  encode,
  encodeShortCode,
  formatIpv4,
  parseJoinCode,
  prefixLengthOf,
} from '../../../shared/roomCode';
import { checkQuasigroup } from '../../../shared/roomCode/checkCharacter';
import { SeededRandom } from '../../../shared/random/prng';

function codeOf(address: string, netmask: string, port: number): string {
  const result = encodeShortCode(address, netmask, port);
  if (!result.ok) throw new Error(`no short code for ${address}/${netmask}:${port}: ${result.reason}`);
  return result.code;
}

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof RoomCodeError) return error.reason;
    throw error;
  }
  return 'accepted';
}

const MASKS = ['255.255.255.0', '255.255.254.0', '255.255.240.0', '255.255.0.0', '255.255.255.252', '255.0.0.0'];

/** A spread of codes over every length: /24 with and without a port, wide subnets, edge host parts. */
function sampleCodes(): string[] {
  const random = new SeededRandom(18);
  const codes = new Set<string>([
    codeOf('192.168.1.20', '255.255.255.0', 9000),
    codeOf('192.168.1.254', '255.255.255.0', 9000),
    codeOf('192.168.1.1', '255.255.255.0', 65535),
    codeOf('10.0.200.7', '255.255.0.0', 9000),
    codeOf('10.1.2.3', '255.0.0.0', 9000),
    codeOf('172.16.31.250', '255.255.224.0', 61234),
  ]);
  while (codes.size < 60) {
    const mask = MASKS[random.int(MASKS.length)] ?? '255.255.255.0';
    const address = formatIpv4(random.int(2 ** 32));
    const port = random.next() < 0.5 ? SHORT_CODE.DEFAULT_PORT : 1 + random.int(65535);
    const result = encodeShortCode(address, mask, port);
    if (result.ok) codes.add(result.code);
  }
  return [...codes];
}

describe('short LAN codes', () => {
  it('carry only the host part, and the port only when it is not the default', () => {
    const plain = codeOf('192.168.1.20', '255.255.255.0', 9000);
    expect(plain).toHaveLength(5);
    expect(decodeShortCode(plain)).toEqual({ hostPart: 20, port: 9000, explicitPort: false });
    // The same host on another /24 prefix gives the same code: the guest's network supplies the prefix.
    expect(codeOf('10.4.7.20', '255.255.255.0', 9000)).toBe(plain);
    const withPort = codeOf('192.168.1.20', '255.255.255.0', 9100);
    expect(withPort.length).toBeGreaterThan(plain.length);
    expect(decodeShortCode(withPort)).toEqual({ hostPart: 20, port: 9100, explicitPort: true });
  });

  it('are 5–7 characters, always shorter than the 10 of a full code', () => {
    for (const code of sampleCodes()) {
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5,7}$/);
      expect(code.length).toBeLessThan(encode('192.168.1.20', 9000).replace('-', '').length);
    }
  });

  it('round-trip for random addresses, masks and ports, completed on a guest of the same subnet', () => {
    const random = new SeededRandom(7);
    let checked = 0;
    for (let i = 0; i < 3000; i += 1) {
      const mask = MASKS[random.int(MASKS.length)] ?? '255.255.255.0';
      const maskValue = Number(mask.split('.').reduce((v, o) => v * 256 + Number(o), 0));
      const network = (random.int(2 ** 32) & maskValue) >>> 0;
      const hostBits = 2 ** (32 - (prefixLengthOf(maskValue) ?? 24));
      const hostPart = 1 + random.int(hostBits - 2);
      const address = formatIpv4(network + hostPart);
      const port = random.next() < 0.3 ? SHORT_CODE.DEFAULT_PORT : 1 + random.int(65535);
      const result = encodeShortCode(address, mask, port);
      if (!result.ok) {
        // Only a wide subnet with a port of its own can overflow the 30 bits.
        expect(result.reason).toBe('too-large');
        expect((hostPart * 65536 + port) * 2 + 1).toBeGreaterThanOrEqual(2 ** 30);
        continue;
      }
      const parts = decodeShortCode(result.code);
      expect(parts.port).toBe(port);
      const guest = formatIpv4(network + ((hostPart + 1) % (hostBits - 1) || 1));
      expect(completeShortCode(parts.hostPart, { address: guest, netmask: mask })).toBe(address);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it('refuse every single-character substitution, exhaustively over the alphabet', () => {
    let tried = 0;
    for (const code of sampleCodes()) {
      for (let position = 0; position < code.length; position += 1) {
        for (const symbol of CROCKFORD_BASE32) {
          if (symbol === code[position]) continue;
          const typo = code.slice(0, position) + symbol + code.slice(position + 1);
          expect(
            reasonOf(() => decodeShortCode(typo)),
            typo,
          ).toBe('check-mismatch');
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThan(60 * 5 * 31 - 1);
  });

  it('refuse every swap of two different neighbours, the check character included', () => {
    let tried = 0;
    for (const code of sampleCodes()) {
      for (let position = 0; position + 1 < code.length; position += 1) {
        const [a, b] = [code[position], code[position + 1]];
        if (a === b) continue;
        const swapped = `${code.slice(0, position)}${b}${a}${code.slice(position + 2)}`;
        expect(
          reasonOf(() => decodeShortCode(swapped)),
          swapped,
        ).toBe('check-mismatch');
        tried += 1;
      }
    }
    expect(tried).toBeGreaterThan(150);
  });

  it('refuse every substitution and swap for every host of a /23 on the default port (all 510 codes)', () => {
    const valid = new Set<string>();
    for (let host = 1; host < 511; host += 1) valid.add(codeOf(formatIpv4(0x0a000000 + host), '255.255.254.0', 9000));
    expect(valid.size).toBe(510);
    let tried = 0;
    for (const code of valid) {
      for (let position = 0; position < code.length; position += 1) {
        for (const symbol of CROCKFORD_BASE32) {
          if (symbol === code[position]) continue;
          const typo = code.slice(0, position) + symbol + code.slice(position + 1);
          if (reasonOf(() => decodeShortCode(typo)) !== 'check-mismatch')
            throw new Error(`${typo} (from ${code}) passed`);
          tried += 1;
        }
        const next = code[position + 1];
        if (next !== undefined && next !== code[position]) {
          const swapped = `${code.slice(0, position)}${next}${code[position]}${code.slice(position + 2)}`;
          if (reasonOf(() => decodeShortCode(swapped)) !== 'check-mismatch') throw new Error(`${swapped} passed`);
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThan(510 * 5 * 31);
  });

  it('use a check whose quasigroup table over 32 symbols is a Latin square and totally anti-symmetric', () => {
    // This is what makes the refusals above hold for every code of every length, not just the ones tried.
    const table = Array.from({ length: 32 }, (_, x) => Array.from({ length: 32 }, (_, y) => checkQuasigroup(32, x, y)));
    for (let i = 0; i < 32; i += 1) {
      expect(new Set(table[i]).size).toBe(32);
      expect(new Set(table.map((row) => row[i])).size).toBe(32);
    }
    let pairs = 0;
    for (let c = 0; c < 32; c += 1) {
      for (let x = 0; x < 32; x += 1) {
        for (let y = 0; y < 32; y += 1) {
          if (x === y) continue;
          const left = table[table[c]?.[x] ?? 0]?.[y];
          const right = table[table[c]?.[y] ?? 0]?.[x];
          if (left === right) throw new Error(`swap of ${x} and ${y} after ${c} goes unseen`);
          pairs += 1;
        }
      }
    }
    expect(pairs).toBe(32 * 32 * 31);
  });

  it('read the way people type: any case, spaces, dashes, O as 0 and I/L as 1', () => {
    const code = codeOf('192.168.1.20', '255.255.255.0', 9100);
    const expected = decodeShortCode(code);
    expect(decodeShortCode(code.toLowerCase())).toEqual(expected);
    expect(decodeShortCode(` ${code.slice(0, 3)}-${code.slice(3)} `)).toEqual(expected);
    expect(decodeShortCode(code.split('').join(' '))).toEqual(expected);
    const withZero = codeOf('192.168.1.0', '255.255.254.0', 9000);
    expect(withZero).toContain('0');
    expect(decodeShortCode(withZero.replaceAll('0', 'O'))).toEqual(decodeShortCode(withZero));
    expect(decodeShortCode(withZero.replaceAll('0', 'o'))).toEqual(decodeShortCode(withZero));
    const withOne = codeOf('192.168.1.16', '255.255.255.0', 9000);
    expect(withOne).toContain('1');
    for (const letter of ['I', 'i', 'L', 'l']) {
      expect(decodeShortCode(withOne.replaceAll('1', letter))).toEqual({
        hostPart: 16,
        port: 9000,
        explicitPort: false,
      });
    }
  });

  it('name the character that is not in codes, and a length that is neither short nor full', () => {
    expect(() => decodeShortCode('AB!CD')).toThrow("'!' at position 3 is not used in room codes");
    expect(() => decodeShortCode('ABUCD')).toThrow("(did you mean 'V'?)");
    expect(reasonOf(() => decodeShortCode('ABCD'))).toBe('wrong-length');
    expect(reasonOf(() => decodeShortCode('ABCDEFGH'))).toBe('wrong-length');
  });

  it('are refused for /31 and /32 interfaces, odd masks, and too wide a subnet with its own port', () => {
    expect(encodeShortCode('100.101.102.103', '255.255.255.255', 9000)).toEqual({ ok: false, reason: 'no-host-part' });
    expect(encodeShortCode('10.0.0.1', '255.255.255.254', 9000)).toEqual({ ok: false, reason: 'no-host-part' });
    expect(encodeShortCode('10.0.0.1', '255.0.255.0', 9000)).toEqual({ ok: false, reason: 'no-host-part' });
    expect(encodeShortCode('10.20.30.40', '255.0.0.0', 9000)).toMatchObject({ ok: true });
    expect(encodeShortCode('10.20.130.40', '255.255.0.0', 9100)).toEqual({ ok: false, reason: 'too-large' });
    expect(encodeShortCode('10.20.30.40', '255.255.224.0', 9100)).toMatchObject({ ok: true });
    expect(encodeShortCode('host', '255.255.255.0', 9000)).toEqual({ ok: false, reason: 'invalid-address' });
    expect(encodeShortCode('10.0.0.1', '255.255.255.0', 0)).toEqual({ ok: false, reason: 'invalid-address' });
  });

  it('are completed only where the host part fits the guest subnet (not its network or broadcast address)', () => {
    const lan = { address: '192.168.1.7', netmask: '255.255.255.0' };
    expect(completeShortCode(20, lan)).toBe('192.168.1.20');
    expect(completeShortCode(300, lan)).toBeUndefined();
    expect(completeShortCode(255, lan)).toBeUndefined();
    expect(completeShortCode(0, lan)).toBeUndefined();
    expect(completeShortCode(300, { address: '10.0.0.9', netmask: '255.255.0.0' })).toBe('10.0.1.44');
    expect(completeShortCode(20, { address: '100.64.1.2', netmask: '255.255.255.255' })).toBeUndefined();
  });
});

describe('the join field reads short and full codes', () => {
  it('tells them apart by length', () => {
    const short = codeOf('192.168.1.20', '255.255.255.0', 9000);
    expect(parseJoinCode(short)).toEqual({ kind: 'short', hostPart: 20, port: 9000, explicitPort: false });
    expect(parseJoinCode(encode('192.168.1.20', 9000))).toEqual({ kind: 'full', host: '192.168.1.20', port: 9000 });
    expect(reasonOf(() => parseJoinCode('ABCDEFGH'))).toBe('wrong-length');
  });

  it('decodes a full code as the reference does, reading O, I and L as 0, 1 and 1', () => {
    const full = encode('10.0.1.1', 9000);
    expect(full).toMatch(/[01]/);
    const typed = full.replaceAll('0', 'O').replaceAll('1', 'l');
    expect(parseJoinCode(typed)).toEqual({ kind: 'full', host: '10.0.1.1', port: 9000 });
    expect(() => parseJoinCode('ZZZZZ-ZZZZZ')).toThrow(RoomCodeError);
  });

  it('never lists the whole alphabet in a message', () => {
    try {
      parseJoinCode('AB#DE-FGHJK');
    } catch (error) {
      expect((error as Error).message).not.toContain(CROCKFORD_BASE32);
      expect((error as Error).message).toContain("'#' at position 3");
    }
    expect.assertions(2);
  });
});
