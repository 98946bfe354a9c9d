import { describe, expect, it } from 'vitest';
import {
  encodeAckFrame,
  encodeDisconnectFrame,
  encodeFragmentFrame,
  encodeIdFrame,
  encodeMessageFrame,
  type NativeFrame,
} from '../../../../../main/net/native/wire/nativeFrames';
import { parseNativePacket } from '../../../../../main/net/native/wire/nativePacket';
import { Frame, MAX_FRAME_OVERHEAD, Native } from '../../../../../main/net/native/wire/nativeWire';
import { nativeDatagram as datagram } from '../../../../support/nativeDatagram';

const TOKEN = 0x0123456789abcdefn;

/** Parses one frame alone in a datagram. */
function roundTrip(frame: Uint8Array): NativeFrame {
  const packet = parseNativePacket(datagram(TOKEN, frame));
  expect(packet.token).toBe(TOKEN);
  expect(packet.frames).toHaveLength(1);
  return packet.frames[0]!;
}

const body = (n: number, salt = 0) => Uint8Array.from({ length: n }, (_, i) => (i * 13 + salt) & 0xff);
const CHANNELS = [0, 1, 2, 3] as const;
const SEQS = [0, 1, 127, 128, 2 ** 14, 2 ** 31, 2 ** 32 - 1];

describe('native frames: encode → parseNativePacket', () => {
  it.each(CHANNELS)('MESSAGE on channel %d round-trips for every sequence size and body length', (channel) => {
    for (const seq of SEQS) {
      for (const length of [0, 1, 127, 128, 1100]) {
        const b = body(length, seq);
        const frame = roundTrip(encodeMessageFrame(channel, seq, b));
        // channel 0 (UNRELIABLE) carries no sequence: it reads back as 0
        expect(frame).toEqual({ kind: Frame.MESSAGE, channel, seq: channel === 0 ? 0 : seq, body: b });
      }
    }
  });

  it('MESSAGE on channel 0 leaves the sequence out of the wire form', () => {
    expect([...encodeMessageFrame(0, 2 ** 32 - 1, Uint8Array.of(9))]).toEqual([Frame.MESSAGE, 0, 1, 9]);
    expect([...encodeMessageFrame(3, 300, Uint8Array.of(9))]).toEqual([Frame.MESSAGE, 3, 0xac, 0x02, 1, 9]);
  });

  it.each(CHANNELS)('FRAGMENT on channel %d round-trips', (channel) => {
    for (const [seq, index, count] of [
      [0, 0, 2],
      [7, 1, 2],
      [2 ** 32 - 1, 3588, 3589],
      [200, 0, 2 ** 32 - 1],
    ] as const) {
      const piece = body(index % 50, seq);
      const frame = roundTrip(encodeFragmentFrame(channel, seq, index, count, piece));
      expect(frame).toEqual({ kind: Frame.FRAGMENT, channel, seq, index, count, body: piece });
    }
  });

  it('FRAGMENT and MESSAGE frames stay within MAX_FRAME_OVERHEAD plus the body', () => {
    const b = body(1000);
    const max = 2 ** 32 - 1;
    expect(encodeFragmentFrame(1, max, max - 1, max, b).byteLength).toBeLessThanOrEqual(
      MAX_FRAME_OVERHEAD + b.byteLength,
    );
    expect(encodeMessageFrame(1, max, b).byteLength).toBeLessThanOrEqual(MAX_FRAME_OVERHEAD + b.byteLength);
  });

  it.each([1, 2])('ACK on channel %d round-trips with bitmaps from empty to the whole window', (channel) => {
    for (const next of SEQS) {
      for (const length of [0, 1, 17, Native.MAX_ACK_BITMAP]) {
        const bitmap = body(length, 1).map((b) => b | 0x80); // last byte non-zero: nothing is trimmed
        const frame = roundTrip(encodeAckFrame(channel, next, bitmap));
        expect(frame).toEqual({ kind: Frame.ACK, channel, next, bitmap });
      }
    }
  });

  it('ACK drops trailing zero bytes of the bitmap and caps it at MAX_ACK_BITMAP', () => {
    const trimmed = roundTrip(encodeAckFrame(1, 5, Uint8Array.of(1, 0, 4, 0, 0)));
    expect(trimmed).toEqual({ kind: Frame.ACK, channel: 1, next: 5, bitmap: Uint8Array.of(1, 0, 4) });
    expect(roundTrip(encodeAckFrame(2, 9, new Uint8Array(40)))).toEqual({
      kind: Frame.ACK,
      channel: 2,
      next: 9,
      bitmap: new Uint8Array(0),
    });
    const oversize = new Uint8Array(Native.MAX_ACK_BITMAP + 10).fill(0xff);
    const capped = roundTrip(encodeAckFrame(1, 0, oversize));
    expect(capped.kind === Frame.ACK && capped.bitmap.byteLength).toBe(Native.MAX_ACK_BITMAP);
  });

  it('PING and PONG round-trip their id', () => {
    for (const id of SEQS) {
      expect(roundTrip(encodeIdFrame(Frame.PING, id))).toEqual({ kind: Frame.PING, id });
      expect(roundTrip(encodeIdFrame(Frame.PONG, id))).toEqual({ kind: Frame.PONG, id });
    }
  });

  it('DISCONNECT round-trips its reason, empty and non-ASCII included', () => {
    for (const reason of ['', 'kicked', 'server closed — bye ✓', '🎮 game over']) {
      expect(roundTrip(encodeDisconnectFrame(reason))).toEqual({ kind: Frame.DISCONNECT, reason });
    }
  });

  it('DISCONNECT cuts a long reason to MAX_REASON bytes on a character boundary', () => {
    const ascii = roundTrip(encodeDisconnectFrame('x'.repeat(500)));
    expect(ascii).toEqual({ kind: Frame.DISCONNECT, reason: 'x'.repeat(Native.MAX_REASON) });
    // 3-byte characters: 200 is not a multiple of 3, so the cut backs up to 198 bytes (66 characters)
    const wide = roundTrip(encodeDisconnectFrame('€'.repeat(100)));
    expect(wide).toEqual({ kind: Frame.DISCONNECT, reason: '€'.repeat(66) });
    // 4-byte characters after one ASCII byte: 1 + 4·49 = 197 bytes
    const emoji = roundTrip(encodeDisconnectFrame('a' + '🎮'.repeat(60)));
    expect(emoji).toEqual({ kind: Frame.DISCONNECT, reason: 'a' + '🎮'.repeat(49) });
  });

  it('several frames of every kind share one datagram and come back in order', () => {
    const frames = [
      encodeMessageFrame(0, 0, body(10)),
      encodeMessageFrame(1, 4, body(20)),
      encodeFragmentFrame(2, 9, 1, 3, body(30)),
      encodeAckFrame(1, 77, Uint8Array.of(5)),
      encodeIdFrame(Frame.PING, 3),
      encodeMessageFrame(3, 12, body(0)),
      encodeIdFrame(Frame.PONG, 2),
      encodeDisconnectFrame('done'),
    ];
    const packet = parseNativePacket(datagram(2n ** 64n - 1n, ...frames));
    expect(packet.token).toBe(2n ** 64n - 1n);
    expect(packet.frames.map((f) => f.kind)).toEqual([1, 1, 2, 3, 4, 1, 5, 6]);
    expect(packet.frames[2]).toEqual({ kind: 2, channel: 2, seq: 9, index: 1, count: 3, body: body(30) });
  });

  it('parsed bodies are views into the datagram (no copies)', () => {
    const d = datagram(TOKEN, encodeMessageFrame(1, 0, body(50)));
    const frame = parseNativePacket(d).frames[0]!;
    expect(frame.kind === Frame.MESSAGE && frame.body.buffer).toBe(d.buffer);
  });
});
