import { describe, expect, it } from 'vitest';
import { ResumableLink } from '../../../main/seats/resumableLink';
import { FakeGuestTransport } from '../game/fakeTransports';

/** A fake Client, named. */
class FakeClient extends FakeGuestTransport {
  constructor(readonly name: string) {
    super();
  }
}

describe('ResumableLink', () => {
  it('moves every subscription to the new connection, and the old one stops delivering', () => {
    const first = new FakeClient('first');
    const link = new ResumableLink(first);
    const got: unknown[] = [];
    link.onMessage('game.snapshot', (payload) => got.push(payload));
    first.deliver('game.snapshot', { n: 1 });
    const second = new FakeClient('second');
    link.lost();
    expect(link.swap(second)).toBe(first);
    expect(link.current).toBe(second);
    first.deliver('game.snapshot', { n: 2 });
    second.deliver('game.snapshot', { n: 3 });
    expect(got).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it('refuses sends while the connection is lost, and sends on the new one after the swap', () => {
    const first = new FakeClient('first');
    const link = new ResumableLink(first);
    expect(link.send('game.input', { i: 1 })).toBe(true);
    link.lost();
    expect(link.isConnected).toBe(false);
    expect(link.send('game.input', { i: 2 })).toBe(false);
    const second = new FakeClient('second');
    link.swap(second);
    expect(link.send('game.input', { i: 3 })).toBe(true);
    expect(first.sent.map((m) => m.payload)).toEqual([{ i: 1 }]);
    expect(second.sent.map((m) => m.payload)).toEqual([{ i: 3 }]);
  });

  it('says disconnect once, when the stay ends, not when a connection drops', () => {
    const link = new ResumableLink(new FakeClient('first'));
    const reasons: string[] = [];
    link.onDisconnect((r) => reasons.push(r));
    link.lost();
    link.swap(new FakeClient('second'));
    expect(reasons).toEqual([]);
    link.end('seat given up');
    link.end('again');
    expect(reasons).toEqual(['seat given up']);
    expect(link.send('x', {})).toBe(false);
  });

  it('unsubscribes for good: neither this connection nor a later one delivers', () => {
    const first = new FakeClient('first');
    const link = new ResumableLink(first);
    const got: unknown[] = [];
    const off = link.onMessage('m', (p) => got.push(p));
    off();
    first.deliver('m', { a: 1 });
    const second = new FakeClient('second');
    link.swap(second);
    second.deliver('m', { a: 2 });
    expect(got).toEqual([]);
  });
});
