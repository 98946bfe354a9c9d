import { describe, expect, it } from 'vitest';
import { splitMessage } from '../../../../../main/net/native/delivery/fragmenter';
import {
  Reassembler,
  type AddResult,
  type ReassemblerOptions,
} from '../../../../../main/net/native/delivery/reassembler';
import { seededRandom as seeded } from '../../../../support/seededRandom';

const LIMITS: ReassemblerOptions = { maxBytes: 1 << 20, maxMessages: 16, maxFragments: 1024 };

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function body(n: number, salt = 0): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 31 + salt + (i >> 8)) & 0xff);
}

/** Feeds pieces in the given index order; asserts all but the last are 'partial' and returns the last result. */
function feed(r: Reassembler, key: number, pieces: Uint8Array[], order: number[], now = 0): AddResult {
  let last: AddResult | undefined;
  for (const [n, index] of order.entries()) {
    last = r.add(key, index, pieces.length, pieces[index] as Uint8Array, now);
    if (n < order.length - 1) expect(last).toEqual({ kind: 'partial' });
  }
  return last as AddResult;
}

const indices = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('Reassembler ordering', () => {
  const original = body(1000);
  const pieces = splitMessage(original, 64);

  it('reassembles in order, in reverse and shuffled', () => {
    const random = seeded(42);
    const orders = [indices(pieces.length), indices(pieces.length).reverse()];
    for (let i = 0; i < 5; i++) orders.push(shuffled(indices(pieces.length), random));
    for (const [key, order] of orders.entries()) {
      const r = new Reassembler(LIMITS);
      expect(feed(r, key, pieces, order)).toEqual({ kind: 'complete', body: original });
      expect(r.bufferedBytes).toBe(0);
      expect(r.partialCount).toBe(0);
    }
  });

  it('completes a count of 1 at once with a copy, buffering nothing', () => {
    const r = new Reassembler(LIMITS);
    const piece = body(10);
    const result = r.add(7, 0, 1, piece, 0);
    expect(result).toEqual({ kind: 'complete', body: piece });
    if (result.kind !== 'complete') throw new Error('unreachable');
    expect(result.body.buffer).not.toBe(piece.buffer);
    expect(r.partialCount).toBe(0);
    expect(r.add(8, 0, 1, new Uint8Array(0), 0)).toEqual({ kind: 'complete', body: new Uint8Array(0) });
  });

  it('copies pieces on arrival, so the caller may reuse its buffers', () => {
    const r = new Reassembler(LIMITS);
    const scratch = Uint8Array.of(1, 2, 3);
    expect(r.add(1, 0, 2, scratch, 0).kind).toBe('partial');
    scratch.fill(9);
    expect(r.add(1, 1, 2, Uint8Array.of(4), 0)).toEqual({ kind: 'complete', body: Uint8Array.of(1, 2, 3, 4) });
  });
});

describe('Reassembler duplicates and mismatches', () => {
  it('reports a repeated index as duplicate without double-counting bytes', () => {
    const r = new Reassembler(LIMITS);
    expect(r.add(1, 0, 3, body(5), 0).kind).toBe('partial');
    expect(r.add(1, 0, 3, body(5), 0)).toEqual({ kind: 'duplicate' });
    expect(r.bufferedBytes).toBe(5);
    expect(r.add(1, 1, 3, body(5), 0).kind).toBe('partial');
    expect(r.add(1, 2, 3, body(5), 0).kind).toBe('complete');
  });

  it('answers duplicate for late fragments of a recently completed key instead of restarting it', () => {
    const r = new Reassembler(LIMITS);
    r.add(5, 0, 2, body(3), 0);
    expect(r.add(5, 1, 2, body(3), 0).kind).toBe('complete');
    expect(r.add(5, 0, 2, body(3), 0)).toEqual({ kind: 'duplicate' });
    expect(r.add(5, 1, 2, body(3), 0)).toEqual({ kind: 'duplicate' });
    expect(r.partialCount).toBe(0);
    expect(r.add(6, 0, 1, body(3), 0).kind).toBe('complete');
    expect(r.add(6, 0, 1, body(3), 0)).toEqual({ kind: 'duplicate' });
  });

  it('remembers only the last rememberCompleted keys', () => {
    const r = new Reassembler({ ...LIMITS, rememberCompleted: 3 });
    for (let key = 0; key < 4; key++) expect(r.add(key, 0, 1, body(1), 0).kind).toBe('complete');
    expect(r.add(0, 0, 1, body(1), 0).kind).toBe('complete'); // key 0 was forgotten
    expect(r.add(2, 0, 1, body(1), 0).kind).toBe('duplicate');
    expect(r.add(3, 0, 1, body(1), 0).kind).toBe('duplicate');
    const forgetful = new Reassembler({ ...LIMITS, rememberCompleted: 0 });
    expect(forgetful.add(1, 0, 1, body(1), 0).kind).toBe('complete');
    expect(forgetful.add(1, 0, 1, body(1), 0).kind).toBe('complete');
  });

  it('rejects a fragment whose count disagrees with the first, leaving the message intact', () => {
    const r = new Reassembler(LIMITS);
    r.add(1, 0, 3, body(4), 0);
    expect(r.add(1, 1, 4, body(4), 0)).toEqual({ kind: 'rejected', reason: 'count-mismatch' });
    expect(r.add(1, 0, 1, body(4), 0)).toEqual({ kind: 'rejected', reason: 'count-mismatch' });
    expect(r.bufferedBytes).toBe(4);
    r.add(1, 1, 3, body(4), 0);
    expect(r.add(1, 2, 3, body(4), 0).kind).toBe('complete');
  });
});

describe('Reassembler rejections', () => {
  const reason = (result: AddResult): string | undefined => (result.kind === 'rejected' ? result.reason : undefined);

  it('rejects bad counts and indices', () => {
    const r = new Reassembler(LIMITS);
    for (const count of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(reason(r.add(1, 0, count, body(1), 0))).toBe('bad-count');
    }
    for (const index of [-1, 3, 4, 0.5, Number.NaN]) {
      expect(reason(r.add(1, index, 3, body(1), 0))).toBe('bad-index');
    }
    expect(r.partialCount).toBe(0);
  });

  it('rejects counts above maxFragments before allocating anything', () => {
    const r = new Reassembler({ ...LIMITS, maxFragments: 8 });
    expect(r.add(1, 0, 8, body(1), 0).kind).toBe('partial');
    expect(reason(r.add(2, 0, 9, body(1), 0))).toBe('too-many-fragments');
    expect(reason(r.add(3, 0, 0xffffffff, body(1), 0))).toBe('too-many-fragments');
    expect(r.partialCount).toBe(1);
  });

  it('rejects new keys beyond maxMessages but keeps accepting fragments of held ones', () => {
    const r = new Reassembler({ ...LIMITS, maxMessages: 2 });
    r.add(1, 0, 2, body(1), 0);
    r.add(2, 0, 2, body(1), 0);
    expect(reason(r.add(3, 0, 2, body(1), 0))).toBe('too-many-messages');
    expect(r.add(9, 0, 1, body(1), 0).kind).toBe('complete'); // a single piece needs no slot
    expect(r.add(1, 1, 2, body(1), 0).kind).toBe('complete');
    expect(r.add(3, 0, 2, body(1), 0).kind).toBe('partial');
    expect(reason(r.add(4, 0, 2, body(1), 0))).toBe('too-many-messages');
  });

  it('allows reaching maxBytes exactly and rejects one byte more', () => {
    const r = new Reassembler({ ...LIMITS, maxBytes: 10 });
    expect(r.add(1, 0, 3, body(4), 0).kind).toBe('partial');
    expect(r.add(2, 0, 2, body(3), 0).kind).toBe('partial');
    expect(reason(r.add(1, 1, 3, body(4), 0))).toBe('over-budget');
    expect(r.add(1, 1, 3, body(3), 0).kind).toBe('partial');
    expect(r.bufferedBytes).toBe(10);
    expect(reason(r.add(2, 1, 2, body(1), 0))).toBe('over-budget');
    expect(r.add(2, 1, 2, new Uint8Array(0), 0)).toEqual({ kind: 'complete', body: body(3) });
    expect(r.bufferedBytes).toBe(7);
  });

  it('never reassembles a multi-fragment message larger than maxBytes', () => {
    const r = new Reassembler({ ...LIMITS, maxBytes: 10 });
    r.add(1, 0, 2, body(6), 0);
    expect(reason(r.add(1, 1, 2, body(5), 0))).toBe('over-budget');
    expect(r.add(1, 1, 2, body(4), 0).kind).toBe('complete');
  });

  it('validates its options', () => {
    expect(() => new Reassembler({ ...LIMITS, maxMessages: 0 })).toThrow(RangeError);
    expect(() => new Reassembler({ ...LIMITS, maxFragments: 0 })).toThrow(RangeError);
    expect(() => new Reassembler({ ...LIMITS, maxBytes: -1 })).toThrow(RangeError);
    expect(() => new Reassembler({ ...LIMITS, maxBytes: Number.NaN })).toThrow(RangeError);
    expect(() => new Reassembler({ ...LIMITS, expireAfter: -1 })).toThrow(RangeError);
  });
});

describe('Reassembler expiry and housekeeping', () => {
  it('drops partial messages older than expireAfter, measured from the first fragment', () => {
    const r = new Reassembler({ ...LIMITS, expireAfter: 2 });
    r.add(1, 0, 2, body(5), 10);
    r.add(2, 0, 2, body(7), 11);
    r.add(1, 1, 2, body(5), 11.5); // completes: no longer partial
    r.add(3, 0, 3, body(2), 11);
    r.add(3, 1, 3, body(2), 12.9); // later fragments do not refresh the age
    expect(r.expire(12.9)).toBe(0);
    expect(r.expire(13)).toBe(0); // exactly expireAfter old is kept
    expect(r.expire(13.01)).toBe(2);
    expect(r.partialCount).toBe(0);
    expect(r.bufferedBytes).toBe(0);
    expect(r.add(3, 2, 3, body(2), 13.02)).toEqual({ kind: 'partial' }); // starts over, not a duplicate
  });

  it('never expires without expireAfter', () => {
    const r = new Reassembler(LIMITS);
    r.add(1, 0, 2, body(5), 0);
    expect(r.expire(1e9)).toBe(0);
    expect(r.partialCount).toBe(1);
  });

  it('discards one message and clears everything', () => {
    const r = new Reassembler(LIMITS);
    r.add(1, 0, 2, body(5), 0);
    r.add(2, 0, 2, body(6), 0);
    r.add(3, 0, 1, body(1), 0);
    expect(r.discard(1)).toBe(true);
    expect(r.discard(1)).toBe(false);
    expect(r.bufferedBytes).toBe(6);
    r.clear();
    expect(r.partialCount).toBe(0);
    expect(r.bufferedBytes).toBe(0);
    expect(r.add(3, 0, 1, body(1), 0).kind).toBe('complete'); // completed memory was cleared too
  });
});

describe('Reassembler at scale', () => {
  it('interleaves many concurrent messages and returns accounting to 0', () => {
    const r = new Reassembler({ maxBytes: 1 << 20, maxMessages: 64, maxFragments: 64 });
    const random = seeded(7);
    const originals = Array.from({ length: 64 }, (_, key) => body(100 + key * 37, key));
    const all = originals.flatMap((original, key) =>
      splitMessage(original, 50).map((piece, index, pieces) => ({ key, index, count: pieces.length, piece })),
    );
    const done = new Map<number, Uint8Array>();
    let peak = 0;
    for (const f of shuffled(all, random)) {
      const result = r.add(f.key, f.index, f.count, f.piece, 0);
      expect(result.kind === 'complete' || result.kind === 'partial').toBe(true);
      if (result.kind === 'complete') done.set(f.key, result.body);
      peak = Math.max(peak, r.bufferedBytes);
    }
    expect(done.size).toBe(64);
    for (const [key, original] of originals.entries()) expect(done.get(key)).toEqual(original);
    expect(peak).toBeGreaterThan(0);
    expect(r.bufferedBytes).toBe(0);
    expect(r.partialCount).toBe(0);
  });

  it('reassembles a 1 MiB message from ~1150-byte pieces byte-identically', () => {
    const original = body(1 << 20);
    const pieces = splitMessage(original, 1150);
    expect(pieces.length).toBe(912);
    const r = new Reassembler({ maxBytes: 1 << 20, maxMessages: 1, maxFragments: 1024 });
    const result = feed(r, 0xfffffff0, pieces, shuffled(indices(pieces.length), seeded(3)));
    expect(result.kind).toBe('complete');
    if (result.kind !== 'complete') throw new Error('unreachable');
    expect(Buffer.from(result.body).equals(Buffer.from(original))).toBe(true);
    expect(r.bufferedBytes).toBe(0);
  });
});
