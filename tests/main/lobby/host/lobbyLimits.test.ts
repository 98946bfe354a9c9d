import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../../../main/base/rateLimiter';
import { DEFAULT_LOBBY_HOST_LIMITS } from '../../../../main/lobby/host/lobbyHostLimits';
import { DEFAULT_BACKOFF, TryBackoff } from '../../../../main/lobby/host/tryBackoff';

describe('per-player action limits', () => {
  it('allows 5 chat lines at once, then one a second, per player; a player who left starts afresh', () => {
    let now = 0;
    const chat = createRateLimiter<number>(DEFAULT_LOBBY_HOST_LIMITS.chat, { now: () => now });
    const allowed = Array.from({ length: 8 }, () => chat.allow(1));
    expect(allowed).toEqual([true, true, true, true, true, false, false, false]);
    expect(chat.allow(2)).toBe(true); // another player has their own budget
    now = 999;
    expect(chat.allow(1)).toBe(false);
    now = 1000;
    expect(chat.allow(1)).toBe(true);
    expect(chat.allow(1)).toBe(false);
    expect(chat.refused).toBe(5);
    chat.forget(1);
    expect([1, 2, 3, 4, 5].map(() => chat.allow(1)).every(Boolean)).toBe(true);
  });

  it('allows 10 ready toggles at once, then two a second', () => {
    let now = 0;
    const ready = createRateLimiter<number>(DEFAULT_LOBBY_HOST_LIMITS.ready, { now: () => now });
    expect(Array.from({ length: 11 }, () => ready.allow(7)).filter(Boolean)).toHaveLength(10);
    now = 500;
    expect([ready.allow(7), ready.allow(7)]).toEqual([true, false]);
  });
});

describe('password backoff', () => {
  it('lets 5 tries through, then waits 1 s, 2 s, 4 s … up to a minute', () => {
    let now = 0;
    const tries = new TryBackoff(DEFAULT_BACKOFF, () => now);
    for (let i = 0; i < 4; i++) tries.fail('10.0.0.9');
    expect(tries.waitMs('10.0.0.9')).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      tries.fail('10.0.0.9');
      waits.push(tries.waitMs('10.0.0.9'));
      now += tries.waitMs('10.0.0.9');
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    expect(tries.waitMs('10.0.0.10')).toBe(0); // per source
  });

  it('starts afresh after a right answer or a long quiet spell', () => {
    let now = 0;
    const tries = new TryBackoff(DEFAULT_BACKOFF, () => now);
    for (let i = 0; i < 6; i++) tries.fail('a');
    expect(tries.waitMs('a')).toBe(2000);
    tries.succeed('a');
    expect(tries.waitMs('a')).toBe(0);
    for (let i = 0; i < 6; i++) tries.fail('b');
    now += DEFAULT_BACKOFF.forgetAfterMs + 1;
    expect(tries.waitMs('b')).toBe(0);
    tries.fail('b');
    expect(tries.waitMs('b')).toBe(0); // first failure of a fresh record
  });

  it('remembers a bounded number of sources, forgetting the oldest', () => {
    const tries = new TryBackoff({ ...DEFAULT_BACKOFF, maxSources: 3, freeTries: 1 }, () => 0);
    for (const source of ['a', 'b', 'c', 'd']) tries.fail(source);
    expect(tries.size).toBe(3);
    expect(tries.waitMs('a')).toBe(0);
    expect(tries.waitMs('d')).toBe(1000);
  });
});
