import { describe, expect, it } from 'vitest';
import { hasBeenInARoom, rememberBeenInARoom, type HintStorage } from '../../renderer/src/state/playedBefore';

const memory = (): HintStorage & { items: Map<string, string> } => {
  const items = new Map<string, string>();
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) };
};

describe('has this player been in a room before (home’s "How game night works" is for new players)', () => {
  it('is false for a new player, true once remembered, and kept in the storage given', () => {
    const storage = memory();
    expect(hasBeenInARoom(storage)).toBe(false);
    rememberBeenInARoom(storage);
    expect(hasBeenInARoom(storage)).toBe(true);
    expect([...storage.items.values()]).toEqual(['1']);
  });

  it('treats missing or refusing storage as a new player, without throwing', () => {
    const refusing: HintStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(hasBeenInARoom(null)).toBe(false);
    expect(hasBeenInARoom(refusing)).toBe(false);
    expect(() => rememberBeenInARoom(refusing)).not.toThrow();
    expect(() => rememberBeenInARoom(null)).not.toThrow();
  });
});
