import { describe, expect, it } from 'vitest';
import { Channel } from '../../../../../shared/net/channel';
import { NativeInbox, type AckWriter } from '../../../../../main/net/native/delivery/nativeInbox';

function inbox() {
  const delivered: Channel[] = [];
  const box = new NativeInbox(
    {
      maxMessageSize: 1 << 20,
      maxUnreliableSize: 1 << 16,
      reassemblyBytes: 1 << 20,
      pieceSize: 1000,
      unreliableExpiry: 1,
    },
    {
      deliver: (_body, channel) => delivered.push(channel),
      drop: () => undefined,
      duplicate: () => undefined,
      fail: () => undefined,
    },
  );
  const acks: { channel: number; next: number; gap: boolean }[] = [];
  const writer: AckWriter = {
    appendAck: (channel, next, _bitmap, length) => void acks.push({ channel, next, gap: length > 0 }),
  };
  return { box, writer, acks, delivered };
}

describe('NativeInbox.writeAcks', () => {
  it('writes nothing when nothing reliable arrived, nor for unreliable messages', () => {
    const { box, writer, acks, delivered } = inbox();
    expect(box.writeAcks(writer)).toBe(0);
    box.unit(Channel.UNRELIABLE, 0, 0, 1, new Uint8Array([1]), 0);
    expect(box.writeAcks(writer)).toBe(0);
    expect(acks).toEqual([]);
    expect(delivered).toEqual([Channel.UNRELIABLE]);
  });

  it('owes one ACK per channel that received, once, and again only for a repeat of one that named a gap', () => {
    const { box, writer, acks } = inbox();
    box.unit(Channel.RELIABLE_ORDERED, 0, 0, 1, new Uint8Array([1]), 0);
    box.unit(Channel.RELIABLE_UNORDERED, 0, 0, 1, new Uint8Array([2]), 0);
    expect(box.writeAcks(writer)).toBe(2);
    expect(box.writeAcks(writer)).toBe(0);
    box.repeatGapAcks(); // no gap named: nothing to repeat
    expect(box.writeAcks(writer)).toBe(0);
    // Sequence 2 before 1: the ACK names the gap, and a repeat owes it again.
    box.unit(Channel.RELIABLE_ORDERED, 2, 0, 1, new Uint8Array([3]), 0);
    expect(box.writeAcks(writer)).toBe(1);
    box.repeatGapAcks();
    expect(box.writeAcks(writer)).toBe(1);
    expect(box.writeAcks(writer)).toBe(0);
    // A duplicate is acknowledged again (our ACK may have been lost).
    box.unit(Channel.RELIABLE_UNORDERED, 0, 0, 1, new Uint8Array([2]), 0);
    expect(box.writeAcks(writer)).toBe(1);
    expect(acks.map((a) => [a.channel, a.next, a.gap])).toEqual([
      [Channel.RELIABLE_ORDERED, 1, false],
      [Channel.RELIABLE_UNORDERED, 1, false],
      [Channel.RELIABLE_ORDERED, 1, true],
      [Channel.RELIABLE_ORDERED, 1, true],
      [Channel.RELIABLE_UNORDERED, 1, false],
    ]);
  });
});
