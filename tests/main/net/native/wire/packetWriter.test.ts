import { describe, expect, it } from 'vitest';
import { encodeAckFrame, encodeIdFrame, encodeMessageFrame } from '../../../../../main/net/native/wire/nativeFrames';
import { parseNativePacket } from '../../../../../main/net/native/wire/nativePacket';
import { Frame, Native } from '../../../../../main/net/native/wire/nativeWire';
import { PacketWriter } from '../../../../../main/net/native/wire/packetWriter';
import { seededRandom } from '../../../../support/seededRandom';
import { testSealer } from '../../../../support/nativeDatagram';

const { HEADER_SIZE, TAG_SIZE } = Native;
/** Header and tag: what a datagram carries besides its frames. */
const OVERHEAD = HEADER_SIZE + TAG_SIZE;

const TOKEN = 0x1122334455667788n;

function writer(mtu = 1200) {
  const sent: Uint8Array[] = [];
  return { w: new PacketWriter(TOKEN, mtu, (d) => void sent.push(d), testSealer()), sent };
}

/** A raw frame of exactly `size` bytes (contents do not matter to the writer). */
const frameOf = (size: number, fill = 0x11) => new Uint8Array(size).fill(fill);

describe('PacketWriter', () => {
  it('packs many small frames into one datagram behind magic and token', () => {
    const { w, sent } = writer();
    for (let i = 0; i < 50; i++) w.append(encodeMessageFrame(1, i, Uint8Array.of(i)));
    expect(sent).toHaveLength(0);
    expect(w.pending).toBe(true);
    w.flush();
    expect(sent).toHaveLength(1);
    const packet = parseNativePacket(sent[0]!);
    expect(packet.token).toBe(TOKEN);
    expect(packet.frames).toHaveLength(50);
    expect(packet.frames.map((f) => f.kind === Frame.MESSAGE && f.seq)).toEqual([...Array(50).keys()]);
    expect(w.pending).toBe(false);
  });

  it('sends the datagram being filled when the next frame does not fit, never exceeding the mtu', () => {
    const { w, sent } = writer(600);
    expect(w.maxFrame).toBe(600 - OVERHEAD);
    w.append(frameOf(300));
    w.append(frameOf(279)); // exactly fills 13 + 300 + 279 + 8 = 600
    expect(sent).toHaveLength(0);
    expect(w.room).toBe(0);
    w.append(frameOf(1, 0x22)); // does not fit: the full datagram leaves first
    expect(sent.map((d) => d.byteLength)).toEqual([600]);
    expect(w.room).toBe(600 - OVERHEAD - 1);
    w.flush();
    expect(sent.map((d) => d.byteLength)).toEqual([600, OVERHEAD + 1]);
    expect(sent[1]![Native.HEADER_SIZE]).toBe(0x22);
  });

  it('keeps every datagram within the mtu for a random mix of frame sizes, losing no byte', () => {
    const random = seededRandom(5);
    for (const mtu of [Native.MIN_MTU, Native.DEFAULT_MTU, Native.MAX_MTU]) {
      const { w, sent } = writer(mtu);
      let total = 0;
      for (let i = 0; i < 2000; i++) {
        const size = 1 + Math.floor(random() ** 3 * w.maxFrame);
        total += size;
        w.append(frameOf(size, i & 0xff));
      }
      w.flush();
      for (const d of sent) {
        expect(d.byteLength).toBeLessThanOrEqual(mtu);
        expect(d.byteLength).toBeGreaterThan(OVERHEAD);
        expect(d[0]).toBe(Native.MAGIC);
        expect(Buffer.from(d.subarray(1, 9)).readBigUInt64BE(0)).toBe(TOKEN);
      }
      expect(sent.reduce((n, d) => n + d.byteLength - OVERHEAD, 0)).toBe(total);
    }
  });

  it('takes a frame of exactly maxFrame bytes and throws RangeError for one byte more', () => {
    const { w, sent } = writer(576);
    w.append(frameOf(w.maxFrame));
    w.flush();
    expect(sent[0]!.byteLength).toBe(576);
    expect(() => w.append(frameOf(w.maxFrame + 1))).toThrow(RangeError);
    expect(() => w.append(frameOf(5000))).toThrow(/exceeds the MTU/);
    // a refused frame leaves the writer usable and empty
    expect(w.pending).toBe(false);
    w.append(encodeIdFrame(Frame.PING, 1));
    w.flush();
    expect(sent).toHaveLength(2);
  });

  it('sends nothing on flush when no frame waits', () => {
    const { w, sent } = writer();
    w.flush();
    w.flush();
    expect(sent).toHaveLength(0);
    w.append(encodeIdFrame(Frame.PONG, 3));
    w.flush();
    w.flush();
    expect(sent).toHaveLength(1);
  });

  it('never writes a datagram again once sent to a sink that may still read it, across many of every size', () => {
    const { w, sent } = writer();
    const expected: Uint8Array[] = [];
    // Full and short datagrams mixed; the sink returns nothing, so each may still be read later.
    for (let i = 0; i < 300; i++) {
      const size = i % 3 === 0 ? w.maxFrame : 1 + ((i * 37) % 200);
      w.append(frameOf(size, i & 0xff));
      w.flush();
      expected.push(Uint8Array.from(sent[i]!));
    }
    expect(sent).toHaveLength(300);
    sent.forEach((d, i) => {
      expect(Uint8Array.from(d)).toEqual(expected[i]);
      expect(d[0]).toBe(Native.MAGIC);
      expect(d[Native.HEADER_SIZE]).toBe(i & 0xff);
    });
  });
});

/** The magic and token bytes every datagram of {@link TOKEN} starts with. */
const HEADER = [Native.MAGIC, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88];

describe('PacketWriter with a sink that reports its sends done', () => {
  it('fills the next datagram in the same memory, each one whole and correct when sent', () => {
    const seen: number[][] = [];
    const buffers = new Set<ArrayBufferLike>();
    const w = new PacketWriter(
      TOKEN,
      600,
      (d) => {
        seen.push([...d]); // what the OS copies, at the moment of the send
        buffers.add(d.buffer);
        return true;
      },
      testSealer(),
    );
    for (let i = 0; i < 20; i++) {
      w.append(frameOf(1 + i * 7, i));
      w.flush();
    }
    expect(buffers.size).toBe(1);
    seen.forEach((bytes, i) => {
      expect(bytes).toHaveLength(OVERHEAD + 1 + i * 7);
      expect(bytes.slice(0, HEADER.length)).toEqual(HEADER);
      expect(bytes.slice(HEADER.length, HEADER_SIZE)).toEqual([0, 0, 0, i]); // the packet number
      expect(bytes.slice(HEADER_SIZE, -TAG_SIZE).every((b) => b === i)).toBe(true);
    });
  });

  it('hands datagrams of one size out in one view while sends complete, and a fresh one after a send that did not', () => {
    const sent: { view: Uint8Array; bytes: number[] }[] = [];
    let complete = true;
    const w = new PacketWriter(
      TOKEN,
      600,
      (d) => {
        sent.push({ view: d, bytes: [...d] });
        return complete;
      },
      testSealer(),
    );
    const send = (fill: number, size = 40) => {
      w.append(frameOf(size, fill));
      w.flush();
    };
    send(1);
    send(2);
    complete = false;
    send(3); // left to the sink: its view and bytes must stay as they are
    complete = true;
    send(4);
    send(5, w.maxFrame); // a full datagram: the whole buffer
    send(6, w.maxFrame);
    expect(sent[1]!.view).toBe(sent[0]!.view);
    expect(sent[2]!.view).toBe(sent[0]!.view);
    expect(sent[3]!.view).not.toBe(sent[2]!.view);
    expect(sent[3]!.view.buffer).not.toBe(sent[2]!.view.buffer);
    expect(sent[5]!.view).toBe(sent[4]!.view);
    expect(sent[4]!.view.length).toBe(600);
    expect([...sent[2]!.view]).toEqual(sent[2]!.bytes);
    sent.forEach(({ bytes }, i) => {
      expect(bytes.slice(0, HEADER.length)).toEqual(HEADER);
      expect(bytes.slice(HEADER.length, HEADER_SIZE)).toEqual([0, 0, 0, i]);
      expect(bytes.slice(HEADER_SIZE, -TAG_SIZE).every((b) => b === i + 1)).toBe(true);
    });
  });

  it('moves to fresh memory, header kept, after a send the sink could not complete at once', () => {
    const sent: Uint8Array[] = [];
    let complete = true;
    const w = new PacketWriter(
      TOKEN,
      600,
      (d) => {
        sent.push(d);
        return complete;
      },
      testSealer(),
    );
    w.append(frameOf(5, 0xaa));
    complete = false;
    w.flush(); // still queued: these bytes must stay as they are
    complete = true;
    w.append(frameOf(9, 0xbb));
    w.flush();
    expect(sent[0]!.buffer).not.toBe(sent[1]!.buffer);
    expect([...sent[0]!.subarray(HEADER_SIZE, -TAG_SIZE)]).toEqual(new Array(5).fill(0xaa));
    expect([...sent[0]!.subarray(0, HEADER.length)]).toEqual(HEADER);
    expect([...sent[1]!.subarray(0, HEADER.length)]).toEqual(HEADER);
    expect([...sent[1]!.subarray(HEADER_SIZE, -TAG_SIZE)]).toEqual(new Array(9).fill(0xbb));
  });
});

describe('PacketWriter.appendMessage', () => {
  it('writes the same bytes as appending an encoded MESSAGE frame, on every channel and across sequence sizes', () => {
    const random = seededRandom(11);
    for (const channel of [0, 1, 2, 3]) {
      for (const seq of [0, 1, 127, 128, 16_383, 16_384, 2 ** 32 - 1]) {
        const body = Uint8Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.floor(random() * 256));
        const viaFrame: Uint8Array[] = [];
        const direct: Uint8Array[] = [];
        const a = new PacketWriter(42n, 1200, (d) => void viaFrame.push(d), testSealer());
        const b = new PacketWriter(42n, 1200, (d) => void direct.push(d), testSealer());
        a.append(encodeMessageFrame(channel, channel === 0 ? 0 : seq, body));
        b.appendMessage(channel, channel === 0 ? 0 : seq, body);
        a.flush();
        b.flush();
        expect(direct).toEqual(viaFrame);
      }
    }
  });

  it('refuses a message whose frame cannot fit one datagram', () => {
    const writer = new PacketWriter(1n, 600, () => undefined, testSealer());
    expect(() => writer.appendMessage(1, 5, new Uint8Array(600))).toThrow(RangeError);
  });
});

describe('PacketWriter.appendAck', () => {
  it('writes the same bytes as appending an encoded ACK frame, trailing zero bytes and all', () => {
    const random = seededRandom(13);
    for (const next of [0, 127, 128, 2 ** 32 - 1]) {
      for (const size of [0, 1, 3, 64, Native.MAX_ACK_BITMAP, Native.MAX_ACK_BITMAP + 40]) {
        const bitmap = Uint8Array.from({ length: size }, () => (random() < 0.5 ? 0 : Math.floor(random() * 256)));
        if (size > 2) bitmap[size - 1] = 0; // a trailing zero byte is left out
        const viaFrame: Uint8Array[] = [];
        const direct: Uint8Array[] = [];
        const a = new PacketWriter(42n, 1200, (d) => void viaFrame.push(Uint8Array.from(d)), testSealer());
        const b = new PacketWriter(42n, 1200, (d) => void direct.push(Uint8Array.from(d)), testSealer());
        a.append(encodeAckFrame(2, next, bitmap));
        b.appendAck(2, next, bitmap);
        a.flush();
        b.flush();
        expect(direct).toEqual(viaFrame);
        const frame = parseNativePacket(direct[0]!).frames[0]!;
        expect(frame).toMatchObject({ kind: Frame.ACK, channel: 2, next });
      }
    }
  });

  it('carries only the first `length` bytes of the bitmap when told, without a subarray', () => {
    const { w, sent } = writer(1200);
    w.appendAck(1, 9, Uint8Array.of(0b11, 0b100, 0xff, 0xff), 2);
    w.appendAck(2, 9, Uint8Array.of(0b1, 0, 0xff), 2); // a zero byte at the end of the used part is left out
    w.appendAck(2, 10, Uint8Array.of(0xff), 0);
    w.flush();
    expect(parseNativePacket(sent[0]!).frames).toEqual([
      { kind: Frame.ACK, channel: 1, next: 9, bitmap: Uint8Array.of(0b11, 0b100) },
      { kind: Frame.ACK, channel: 2, next: 9, bitmap: Uint8Array.of(0b1) },
      { kind: Frame.ACK, channel: 2, next: 10, bitmap: new Uint8Array(0) },
    ]);
  });

  it('sends the datagram being filled first when the ack does not fit', () => {
    const { w, sent } = writer(600);
    w.append(frameOf(w.maxFrame - 4));
    w.appendAck(1, 5, Uint8Array.of(0xff, 0x01));
    expect(sent).toHaveLength(1);
    w.flush();
    expect(parseNativePacket(sent[1]!).frames).toEqual([
      { kind: Frame.ACK, channel: 1, next: 5, bitmap: Uint8Array.of(0xff, 0x01) },
    ]);
  });
});
