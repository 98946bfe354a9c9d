import { describe, expect, it } from 'vitest';
import {
  encodeAckFrame,
  encodeDisconnectFrame,
  encodeFragmentFrame,
  encodeIdFrame,
  encodeMessageFrame,
} from '../../../../../main/net/native/wire/nativeFrames';
import {
  NativeParseError,
  isNativeDatagram,
  parseNativePacket,
  splitToken,
} from '../../../../../main/net/native/wire/nativePacket';
import { Frame, Native } from '../../../../../main/net/native/wire/nativeWire';
import { CHANNEL_OF_NATIVE_WIRE } from '../../../../../main/net/native/wire/nativeChannels';
import { nativeDatagram } from '../../../../support/nativeDatagram';
import { seededRandom } from '../../../../support/seededRandom';

const TOKEN = 0xfeedfacecafebeefn;
const datagram = (...frames: Array<Uint8Array | number[]>): Uint8Array => nativeDatagram(TOKEN, ...frames);

/** Asserts the parser refuses `data` with a NativeParseError (and nothing else), optionally matching a message. */
function rejects(data: Uint8Array, message?: RegExp): void {
  let thrown: unknown;
  try {
    parseNativePacket(data);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, 'parser accepted a malformed datagram').toBeInstanceOf(NativeParseError);
  if (message) expect((thrown as Error).message).toMatch(message);
}

const ok = (d: Uint8Array) => parseNativePacket(d).frames;

describe('isNativeDatagram', () => {
  it('tells native (0xA7) from v1 (channel byte 0–2) and empty datagrams', () => {
    expect(isNativeDatagram(Uint8Array.of(Native.MAGIC))).toBe(true);
    for (const first of [0, 1, 2, 3, 0xa6, 0xff]) expect(isNativeDatagram(Uint8Array.of(first))).toBe(false);
    expect(isNativeDatagram(new Uint8Array(0))).toBe(false);
  });
});

describe('parseNativePacket rejects', () => {
  it('datagrams shorter than a header and one frame, or without the magic', () => {
    for (let n = 0; n <= Native.HEADER_SIZE + Native.TAG_SIZE; n++) rejects(datagram().subarray(0, n), /shorter/);
    const v1ish = datagram([Frame.PING, 0]);
    v1ish[0] = 0x01;
    rejects(v1ish, /not a native/);
    expect(ok(datagram([Frame.PING, 0]))).toEqual([{ kind: Frame.PING, id: 0 }]);
  });

  it('unknown frame kinds, anywhere in the datagram', () => {
    for (const kind of [0x00, 0x09, 0x7f, 0x80, 0xa7, 0xff]) {
      rejects(datagram([kind, 0, 0, 0]), /unknown frame kind/);
      rejects(datagram(encodeIdFrame(Frame.PING, 1), [kind]), /unknown frame kind/);
    }
  });

  it('unknown channels on MESSAGE and FRAGMENT frames', () => {
    // The first bytes past the channel table, and a few far from it.
    const unknown = [...Array(256).keys()].filter((byte) => CHANNEL_OF_NATIVE_WIRE[byte] === -1);
    for (const channel of [...unknown.slice(0, 2), 0x80, 0xff]) {
      rejects(datagram([Frame.MESSAGE, channel, 0, 0]), /unknown channel/);
      rejects(datagram([Frame.FRAGMENT, channel, 0, 0, 2, 0]), /unknown channel/);
    }
  });

  it('ACK frames on channels 0, 3 or unknown ones', () => {
    const unknown = [...Array(256).keys()].find((byte) => CHANNEL_OF_NATIVE_WIRE[byte] === -1)!;
    for (const channel of [0, 3, unknown, 0xff]) rejects(datagram([Frame.ACK, channel, 0, 0]), /ack on channel/);
    expect(ok(datagram([Frame.ACK, 1, 0, 0]))).toHaveLength(1);
  });

  it('ACK bitmaps longer than the window (512 bytes)', () => {
    const bitmap = (n: number) => [Frame.ACK, 2, 5, ...varint(n), ...new Array<number>(n).fill(1)];
    expect(Native.MAX_ACK_BITMAP).toBe(Native.SEND_WINDOW / 8);
    expect(ok(datagram(bitmap(512)))).toHaveLength(1);
    rejects(datagram(bitmap(513)), /bitmap of 513/);
    rejects(datagram([Frame.ACK, 2, 5, ...varint(2 ** 32 - 1)]), /bitmap/);
  });

  it('fragments whose index is not below count, or whose count is below 2', () => {
    const frag = (index: number, count: number) => [Frame.FRAGMENT, 1, 0, ...varint(index), ...varint(count), 1, 0xaa];
    expect(ok(datagram(frag(0, 2)))).toHaveLength(1);
    expect(ok(datagram(frag(2 ** 32 - 2, 2 ** 32 - 1)))).toHaveLength(1);
    for (const [index, count] of [
      [0, 0],
      [0, 1],
      [1, 1],
      [2, 2],
      [3, 2],
      [2 ** 32 - 1, 2 ** 32 - 1],
    ] as const) {
      rejects(datagram(frag(index, count)), /fragment/);
    }
  });

  it('DISCONNECT reasons longer than 200 bytes or not valid UTF-8', () => {
    const reason = (bytes: number[]) => [Frame.DISCONNECT, ...varint(bytes.length), ...bytes];
    expect(ok(datagram(reason(new Array<number>(200).fill(0x41))))).toHaveLength(1);
    rejects(datagram(reason(new Array<number>(201).fill(0x41))), /reason of 201/);
    const invalid = [
      [0xff],
      [0xc0, 0x80], // overlong NUL
      [0xe2, 0x82], // cut inside a character
      [0xed, 0xa0, 0x80], // a UTF-16 surrogate
      [0x41, 0x80, 0x41], // lone continuation byte
      [0xf4, 0x90, 0x80, 0x80], // beyond U+10FFFF
    ];
    for (const bytes of invalid) rejects(datagram(reason(bytes)));
  });

  it('varints longer than 5 bytes or beyond 32 bits inside frames', () => {
    rejects(datagram([Frame.PING, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]), /varint/);
    rejects(datagram([Frame.PONG, 0x80, 0x80, 0x80, 0x80, 0x10]), /32 bits/);
    rejects(datagram([Frame.MESSAGE, 1, 0xff, 0xff, 0xff, 0xff, 0x1f, 0]), /32 bits/);
  });

  it('a body length beyond the datagram', () => {
    rejects(datagram([Frame.MESSAGE, 0, 5, 1, 2, 3, 4]));
    rejects(datagram([Frame.MESSAGE, 2, 0, ...varint(2 ** 32 - 1), 1]));
  });

  it('a datagram truncated at every byte offset, unless the cut falls between frames', () => {
    const frames = [
      encodeMessageFrame(
        1,
        300,
        Uint8Array.from({ length: 40 }, (_, i) => i),
      ),
      encodeFragmentFrame(2, 70_000, 1, 3, Uint8Array.of(1, 2, 3)),
      encodeAckFrame(1, 2 ** 31, Uint8Array.of(0xff, 0, 3)),
      encodeIdFrame(Frame.PING, 2 ** 32 - 1),
      encodeMessageFrame(3, 129, Uint8Array.of(7)),
      encodeIdFrame(Frame.PONG, 128),
      encodeMessageFrame(0, 0, new Uint8Array(130)),
      encodeDisconnectFrame('bye ✓'),
    ];
    const full = datagram(...frames);
    const whole = ok(full);
    const boundaries = new Map<number, number>(); // end offset → frames before it
    let at = Native.HEADER_SIZE;
    frames.forEach((f, i) => boundaries.set((at += f.byteLength), i + 1));
    let accepted = 0;
    // The frames cut short, the tag still after them (it is checked before parsing, by the opener).
    const tag = full.slice(full.byteLength - Native.TAG_SIZE);
    for (let cut = 0; cut < full.byteLength - Native.TAG_SIZE; cut++) {
      const prefix = new Uint8Array(cut + Native.TAG_SIZE);
      prefix.set(full.subarray(0, cut));
      prefix.set(tag, cut);
      const complete = boundaries.get(cut);
      if (complete === undefined) {
        rejects(prefix);
      } else {
        expect(ok(prefix)).toEqual(whole.slice(0, complete));
        accepted += 1;
      }
    }
    expect(accepted).toBe(frames.length - 1);
  });
});

describe('parseNativePacket token', () => {
  it('reads the token as its two halves and as a BigInt, and splitToken agrees', () => {
    for (const token of [0n, 1n, 0xfeedfacecafebeefn, 0x8000000100000002n, 2n ** 64n - 1n]) {
      const packet = parseNativePacket(nativeDatagram(token, [Frame.PING, 0]));
      const { high, low } = splitToken(token);
      expect([packet.tokenHigh, packet.tokenLow]).toEqual([high, low]);
      expect(packet.token).toBe(token);
      expect(high * 2 ** 32 + low).toBe(Number(token));
    }
  });
});

describe('parseNativePacket fuzz', () => {
  it('never throws anything but NativeParseError on 20,000 seeded garbage datagrams', () => {
    const random = seededRandom(20_260_101);
    const byte = () => Math.floor(random() * 256);
    const seedFrames = [
      encodeMessageFrame(1, 5, new Uint8Array(20)),
      encodeFragmentFrame(3, 9, 0, 2, new Uint8Array(8)),
      encodeAckFrame(2, 100, Uint8Array.of(1, 2, 3)),
      encodeDisconnectFrame('reason'),
      encodeIdFrame(Frame.PING, 77),
    ];
    const counts = { parsed: 0, rejected: 0 };
    for (let i = 0; i < 20_000; i++) {
      let data: Uint8Array;
      if (i % 2 === 0) {
        // pure garbage behind a valid header, biased towards frame kinds 0–7 and small lengths
        data = datagram(
          Array.from({ length: 1 + Math.floor(random() * 60) }, () => (random() < 0.4 ? byte() & 7 : byte())),
        );
      } else {
        // a valid datagram with a few bytes mutated, cut or extended
        const base = datagram(...seedFrames.filter(() => random() < 0.6), encodeIdFrame(Frame.PONG, 1));
        data = base.slice(0, Math.max(1, base.byteLength - Math.floor(random() * 4)));
        for (let m = Math.floor(random() * 4); m >= 0; m--) {
          const at = Native.HEADER_SIZE + Math.floor(random() * (data.byteLength - Native.HEADER_SIZE));
          if (at < data.byteLength) data[at] = byte();
        }
        if (random() < 0.1) data[0] = byte();
      }
      try {
        const packet = parseNativePacket(data);
        counts.parsed += 1;
        expect(packet.token).toBe(TOKEN);
      } catch (error) {
        if (!(error instanceof NativeParseError)) throw error;
        counts.rejected += 1;
      }
    }
    // the fuzz reached both outcomes, so it exercised real parsing paths
    expect(counts.parsed).toBeGreaterThan(500);
    expect(counts.rejected).toBeGreaterThan(500);
  });
});

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return out;
}
