import { describe, expect, it } from 'vitest';
import { NO_ACK, ReliableReceiver } from '../../../../main/net/v1/reliableReceiver';

function collect(r: ReliableReceiver<number>) {
  const out: number[] = [];
  return { out, push: (seq: number) => r.receive(seq, seq, (m) => out.push(m)) };
}

describe('ReliableReceiver, ordered', () => {
  it('holds early arrivals back and delivers strictly in order', () => {
    const r = new ReliableReceiver<number>({ ordered: true });
    const { out, push } = collect(r);
    expect(push(2)).toBe('new');
    expect(push(1)).toBe('new');
    expect(out).toEqual([]);
    push(0);
    expect(out).toEqual([0, 1, 2]);
    expect(r.bufferedCount).toBe(0);
  });

  it('drops duplicates, before and after delivery', () => {
    const r = new ReliableReceiver<number>({ ordered: true });
    const { out, push } = collect(r);
    push(1);
    expect(push(1)).toBe('duplicate');
    push(0);
    expect(push(0)).toBe('duplicate');
    expect(out).toEqual([0, 1]);
  });

  it('rejects sequences beyond the window and never-sent ones behind the start', () => {
    const r = new ReliableReceiver<number>({ ordered: true, window: 64 });
    const { out, push } = collect(r);
    expect(push(64)).toBe('out-of-window');
    expect(push(0xffffffff)).toBe('out-of-window');
    expect(push(2 ** 31)).toBe('out-of-window');
    expect(out).toEqual([]);
    expect(r.ackHeader()).toEqual(NO_ACK);
  });
});

describe('ReliableReceiver, unordered', () => {
  it('delivers on first arrival', () => {
    const r = new ReliableReceiver<number>({ ordered: false });
    const { out, push } = collect(r);
    push(3);
    push(1);
    push(0);
    expect(out).toEqual([3, 1, 0]);
  });

  it('never delivers a late duplicate twice, however late (the reference forgot after 128)', () => {
    const r = new ReliableReceiver<number>({ ordered: false });
    const { out, push } = collect(r);
    for (let i = 0; i < 1000; i++) if (i !== 7) push(i);
    push(7);
    for (let i = 1000; i < 5000; i++) push(i);
    for (const late of [0, 7, 128, 129, 4999]) expect(push(late)).toBe('duplicate');
    expect(out).toHaveLength(5000);
    expect(new Set(out).size).toBe(5000);
  });
});

describe('ReliableReceiver acks', () => {
  it('reports nothing-received as NO_ACK, then newest plus history bits', () => {
    const r = new ReliableReceiver<number>({ ordered: true });
    const { push } = collect(r);
    expect(r.ackHeader()).toEqual(NO_ACK);
    push(0);
    expect(r.ackHeader()).toEqual({ ack: 0, bitfield: 0 });
    push(2);
    push(5);
    // ack 5: bit0=4 no, bit1=3 no, bit2=2 yes, bit3=1 no, bit4=0 yes
    expect(r.ackHeader()).toEqual({ ack: 5, bitfield: 0b10100 });
  });

  it('can acknowledge any old sequence again (late duplicates get a targeted ack)', () => {
    const r = new ReliableReceiver<number>({ ordered: true });
    const { push } = collect(r);
    for (let i = 0; i < 100; i++) push(i);
    expect(r.coveredByHeader(99 - 32)).toBe(true);
    expect(r.coveredByHeader(10)).toBe(false);
    expect(r.has(10)).toBe(true);
    expect(r.bitfieldFor(10)).toBe(0b1111111111); // 9..0 received
    expect(r.has(100)).toBe(false);
  });

  it('works across the 2^32 wrap', () => {
    const r = new ReliableReceiver<number>({ ordered: true, startSequence: 0xfffffffe });
    const out: number[] = [];
    for (const s of [0, 0xffffffff, 0xfffffffe, 1]) r.receive(s, s, (m) => out.push(m));
    expect(out).toEqual([0xfffffffe, 0xffffffff, 0, 1]);
    expect(r.ackHeader()).toEqual({ ack: 1, bitfield: 0b111 });
    expect(r.receive(0xffffffff, 0, () => undefined)).toBe('duplicate');
  });
});
