import { describe, expect, it } from 'vitest';
import { Channel } from '../../../../../shared/net/channel';
import { NativeOutbox } from '../../../../../main/net/native/delivery/nativeOutbox';
import { Native } from '../../../../../main/net/native/wire/nativeWire';
import { PacketWriter } from '../../../../../main/net/native/wire/packetWriter';
import { testSealer } from '../../../../support/nativeDatagram';

function outbox() {
  const sent: Uint8Array[] = [];
  const writer = new PacketWriter(1n, 1200, (d) => void sent.push(Uint8Array.from(d)), testSealer());
  // The smallest receive window: 16 KiB holds ~15 units of 1,000 bytes, the rest wait behind it.
  const box = new NativeOutbox({ writer, maxQueued: 1000, clock: () => 0, peerRecvWindow: Native.MIN_RECV_WINDOW });
  return { box, writer, sent };
}

describe('NativeOutbox.hasQueued', () => {
  it('is false before any reliable send, and stays false for unreliable ones', () => {
    const { box, writer } = outbox();
    expect(box.hasQueued).toBe(false);
    box.send(new Uint8Array(100), Channel.UNRELIABLE);
    box.send(new Uint8Array(100), Channel.UNRELIABLE_SEQUENCED);
    expect(box.hasQueued).toBe(false);
    expect(writer.pending).toBe(true);
  });

  it('tells queued units from none across enqueues, packing, a full window and acknowledgements', () => {
    const { box } = outbox();
    box.send(new Uint8Array(1000), Channel.RELIABLE_ORDERED);
    expect(box.hasQueued).toBe(true);
    expect(box.flushAllSendable(0)).toBe(1);
    expect(box.hasQueued).toBe(false);
    // Past the peer's window: the units that do not fit still wait after the flush.
    for (let i = 0; i < 40; i++) box.send(new Uint8Array(1000), Channel.RELIABLE_UNORDERED);
    expect(box.hasQueued).toBe(true);
    const packed = box.flushAllSendable(0);
    expect(packed).toBeGreaterThan(0);
    expect(packed).toBeLessThan(40);
    expect(box.hasQueued).toBe(true);
    expect(box.hasQueued).toBe(true); // asking again does not forget them
    // Acknowledging everything in flight makes room: the rest leave, and nothing waits.
    const sender = box.senders[Channel.RELIABLE_UNORDERED];
    let total = packed;
    while (box.hasQueued) {
      sender.acknowledgeCumulative(sender.windowEnd, new Uint8Array(0), () => undefined);
      box.senders[Channel.RELIABLE_ORDERED].acknowledgeCumulative(
        box.senders[Channel.RELIABLE_ORDERED].windowEnd,
        new Uint8Array(0),
        () => undefined,
      );
      total += box.flushAllSendable(0);
    }
    expect(total).toBe(40);
    expect(box.pendingReliable).toBe(sender.inFlightCount);
    box.send(new Uint8Array(10), Channel.RELIABLE_ORDERED);
    expect(box.hasQueued).toBe(true);
  });
});
