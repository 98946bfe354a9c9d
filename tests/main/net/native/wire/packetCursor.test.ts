import { describe, expect, it } from 'vitest';
import { encodeAckFrame, encodeMessageFrame } from '../../../../../main/net/native/wire/nativeFrames';
import { NativeParseError, PacketCursor } from '../../../../../main/net/native/wire/packetCursor';
import { Frame } from '../../../../../main/net/native/wire/nativeWire';
import { nativeDatagram } from '../../../../support/nativeDatagram';

describe('PacketCursor', () => {
  it('steps through the frames, leaving each one’s fields and a view of its bytes', () => {
    const data = nativeDatagram(
      0x0102030405060708n,
      encodeMessageFrame(1, 300, Uint8Array.of(7, 8, 9)),
      encodeAckFrame(2, 41, Uint8Array.of(0b101)),
      [Frame.PONG, 5],
    );
    const cursor = new PacketCursor(data);
    expect([cursor.tokenHigh, cursor.tokenLow]).toEqual([0x01020304, 0x05060708]);
    expect(cursor.nextFrame()).toBe(true);
    expect([cursor.kind, cursor.channel, cursor.seq]).toEqual([Frame.MESSAGE, 1, 300]);
    const body = cursor.view();
    expect([...body]).toEqual([7, 8, 9]);
    expect(body.buffer).toBe(data.buffer); // a view, not a copy
    expect(cursor.nextFrame()).toBe(true);
    expect([cursor.kind, cursor.channel, cursor.next, ...cursor.view()]).toEqual([Frame.ACK, 2, 41, 0b101]);
    expect(cursor.nextFrame()).toBe(true);
    expect([cursor.kind, cursor.id]).toEqual([Frame.PONG, 5]);
    expect(cursor.nextFrame()).toBe(false);
    expect(cursor.nextFrame()).toBe(false);
  });

  it('views bodies correctly inside a pooled Buffer (a datagram as the socket hands it over)', () => {
    const plain = nativeDatagram(9n, encodeMessageFrame(0, 0, Uint8Array.of(4, 5)));
    const pool = Buffer.alloc(plain.byteLength + 64, 0xee);
    pool.set(plain, 17);
    const cursor = new PacketCursor(pool.subarray(17, 17 + plain.byteLength));
    cursor.nextFrame();
    expect([...cursor.view()]).toEqual([4, 5]);
    expect(cursor.view()).not.toBeInstanceOf(Buffer);
  });

  it('checks every frame before any is read: a bad last frame refuses the whole datagram', () => {
    const good = encodeMessageFrame(1, 0, Uint8Array.of(1));
    expect(() => new PacketCursor(nativeDatagram(1n, good, good))).not.toThrow();
    expect(() => new PacketCursor(nativeDatagram(1n, good, [Frame.ACK, 0, 0, 0]))).toThrow(NativeParseError);
    expect(() => new PacketCursor(nativeDatagram(1n, good, [Frame.MESSAGE, 1, 0, 5, 1]))).toThrow(/ends inside/);
    expect(() => new PacketCursor(nativeDatagram(1n, good, [Frame.DISCONNECT, 1, 0xff]))).toThrow(/UTF-8/);
  });

  it('reads a DISCONNECT reason', () => {
    const reason = [...new TextEncoder().encode('bye ✓')];
    const cursor = new PacketCursor(nativeDatagram(1n, [Frame.DISCONNECT, reason.length, ...reason]));
    cursor.nextFrame();
    expect(cursor.reason()).toBe('bye ✓');
  });
});
