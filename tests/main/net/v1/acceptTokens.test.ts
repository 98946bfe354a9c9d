import { describe, expect, it } from 'vitest';
import { AcceptTokens, MAX_TOKEN_PEER_ID } from '../../../../main/net/v1/acceptTokens';
import { seededRandom } from '../../../support/seededRandom';

/** Tokens on a controllable clock (5 s slots) with a fixed key. */
function setup(start = 1000) {
  const time = { now: start };
  const tokens = new AcceptTokens({ clock: () => time.now, randomKey: () => new Uint8Array(32).fill(7) });
  return { time, tokens };
}

const halves = (token: bigint): [number, number] => [Number(token >> 32n), Number(token & 0xffffffffn)];
const ADDR = '127.0.0.1';

describe('AcceptTokens', () => {
  it('a token names the peer id it was issued for, to that address and port only', () => {
    const { tokens } = setup();
    const token = tokens.issue(ADDR, 4000, 42)!;
    expect(token).not.toBe(0n);
    expect(tokens.check(...halves(token), ADDR, 4000)).toBe(42);
    expect(tokens.check(...halves(token), '127.0.0.2', 4000)).toBe(0);
    expect(tokens.check(...halves(token), ADDR, 4001)).toBe(0);
    expect(tokens.check(...halves(token), '::ffff:127.0.0.1', 4000)).toBe(0);
    // Repeated requests in one slot get the same token for the same id, another one for the next id.
    expect(tokens.issue(ADDR, 4000, 42)).toBe(token);
    expect(tokens.issue(ADDR, 4000, 43)).not.toBe(token);
  });

  it('hides the peer id: the high half is not the id, and every bit of the token matters', () => {
    const { tokens } = setup();
    const token = tokens.issue(ADDR, 4000, 1)!;
    expect(halves(token)[0]).not.toBe(1);
    for (let bit = 0n; bit < 64n; bit++) {
      expect(tokens.check(...halves(token ^ (1n << bit)), ADDR, 4000), `bit ${bit}`).toBe(0);
    }
  });

  it('admits in its slot and the next, not later', () => {
    const { time, tokens } = setup(1000); // slot 200: 1000–1005 s
    const token = tokens.issue(ADDR, 4000, 5)!;
    time.now = 1009.9; // slot 201
    expect(tokens.check(...halves(token), ADDR, 4000)).toBe(5);
    time.now = 1010; // slot 202
    expect(tokens.check(...halves(token), ADDR, 4000)).toBe(0);
  });

  it('10,000 random tokens from one endpoint admit nothing', () => {
    const { tokens } = setup();
    tokens.issue(ADDR, 4000, 1);
    const random = seededRandom(16);
    let admitted = 0;
    for (let i = 0; i < 10_000; i++) {
      const high = Math.floor(random() * 2 ** 32);
      const low = Math.floor(random() * 2 ** 32);
      if (tokens.check(high, low, ADDR, 4000) !== 0) admitted += 1;
    }
    expect(admitted).toBe(0);
  });

  it('refuses bad ids, short keys, bad slots; a broken clock issues and admits nothing', () => {
    const { tokens } = setup();
    for (const id of [0, -1, 1.5, MAX_TOKEN_PEER_ID + 1, NaN])
      expect(() => tokens.issue(ADDR, 1, id)).toThrow(RangeError);
    expect(tokens.issue(ADDR, 1, MAX_TOKEN_PEER_ID)).toBeTypeOf('bigint');
    expect(() => new AcceptTokens({ clock: () => 0, randomKey: () => new Uint8Array(8) })).toThrow(/16 bytes/);
    expect(() => new AcceptTokens({ clock: () => 0, slotSeconds: 0 })).toThrow(/slotSeconds/);
    const time = { now: 1000 };
    const broken = new AcceptTokens({ clock: () => time.now });
    const token = broken.issue(ADDR, 1, 1)!;
    time.now = NaN;
    expect(broken.issue(ADDR, 1, 1)).toBeUndefined();
    expect(broken.check(...halves(token), ADDR, 1)).toBe(0);
  });
});
