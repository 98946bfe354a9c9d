import { describe, expect, it } from 'vitest';
import { PendingChat } from '../../../main/seats/pendingChat';
import type { ChatLine } from '../../../shared/lobby/lobbyState';

const ME = 3;
let nextId = 1;
const line = (text: string, from = ME): ChatLine => ({ id: nextId++, from, name: from === ME ? 'Me' : 'Other', text });

describe('PendingChat (our lines the room has not shown yet)', () => {
  it('sends again only what the room has not shown, in order', () => {
    const pending = new PendingChat();
    for (const text of ['a', 'b', 'c']) pending.sent(text);
    pending.shown(line('a'), ME);
    pending.shown(line('b', 7), ME);
    expect(pending.afterReturn([], ME)).toEqual(['b', 'c']);
  });

  it('settles what the welcome’s history holds, and a line the host dropped before a shown one', () => {
    const pending = new PendingChat();
    for (const text of ['gg', 'dropped by the limit', 'gg', 'last']) pending.sent(text);
    const first = line('gg');
    pending.shown(first, ME);
    // The history holds the first line again (seen already) and the second "gg": the dropped one is settled too.
    expect(pending.afterReturn([first, line('hi', 7), line('gg')], ME)).toEqual(['last']);
    expect(pending.afterReturn([], ME)).toEqual(['last']);
    pending.shown(line('last'), ME);
    expect(pending.afterReturn([], ME)).toEqual([]);
  });

  it('keeps at most 32 lines', () => {
    const pending = new PendingChat();
    for (let i = 0; i < 40; i += 1) pending.sent(`line ${i}`);
    const again = pending.afterReturn([], ME);
    expect(again).toHaveLength(32);
    expect(again[0]).toBe('line 8');
  });
});
