import { describe, expect, it } from 'vitest';
import { PEER_ID_WINDOW, PeerIds } from '../../../../../main/net/endpoint/intake/peerIds';

describe('PeerIds', () => {
  it('counts 1, 2, 3 for joins one after another', () => {
    const ids = new PeerIds(2 ** 32 - 1);
    for (const want of [1, 2, 3]) {
      const id = ids.name()!;
      expect(id).toBe(want);
      expect(ids.redeem(id)).toBe(true);
    }
    expect(ids.take()).toBe(4);
  });

  it('a million accepts never redeemed spend nothing: the next join still gets an id within the window', () => {
    const ids = new PeerIds(2 ** 32 - 1);
    let highest = 0;
    for (let i = 0; i < 1_000_000; i++) highest = Math.max(highest, ids.name()!);
    expect(highest).toBe(PEER_ID_WINDOW);
    const id = ids.name()!;
    expect(id).toBeLessThanOrEqual(PEER_ID_WINDOW);
    expect(ids.redeem(id)).toBe(true);
  });

  it('concurrent accepts name different ids, redeemed in any order, each once', () => {
    const ids = new PeerIds(2 ** 32 - 1);
    const named = [ids.name()!, ids.name()!, ids.name()!];
    expect(new Set(named).size).toBe(3);
    for (const id of [named[2]!, named[0]!, named[1]!]) expect(ids.redeem(id)).toBe(true);
    for (const id of named) expect(ids.redeem(id)).toBe(false);
    expect(ids.name()).toBe(Math.max(...named) + 1);
  });

  it('refuses an id the ids moved a window past, and names none past the maximum', () => {
    const ids = new PeerIds(PEER_ID_WINDOW * 4);
    const early = ids.name()!;
    for (let i = 0; i < PEER_ID_WINDOW * 2; i++) ids.take();
    expect(ids.redeem(early)).toBe(false);
    for (let i = 0; i < PEER_ID_WINDOW * 2 - 1; i++) expect(ids.take()).toBeDefined(); // 1 was skipped for good
    expect(ids.take()).toBeUndefined();
    expect(ids.name()).toBeUndefined();
  });
});
