import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SipHashKey } from '../../../../../main/net/native/protection/sipHash';
import {
  expandPacketNumber,
  Opened,
  PacketOpener,
  PacketSealer,
} from '../../../../../main/net/native/protection/packetProtection';
import { deriveNativeKeys, generateNativeKeyPair } from '../../../../../main/net/native/protection/nativeKeys';
import { encodeIdFrame } from '../../../../../main/net/native/wire/nativeFrames';
import { Frame, Native } from '../../../../../main/net/native/wire/nativeWire';
import { nativeDatagram, sealDatagram, TEST_KEYS_A, TEST_KEYS_B } from '../../../../support/nativeDatagram';

const vectors = JSON.parse(
  readFileSync(new URL('../../../../fixtures/sipHashVectors.json', import.meta.url), 'utf8'),
) as {
  tags: string[];
};

const hex = (high: number, low: number): string => {
  const bytes = Buffer.alloc(8);
  bytes.writeUInt32LE(low, 0);
  bytes.writeUInt32LE(high, 4);
  return bytes.toString('hex');
};

describe('SipHash-2-4', () => {
  it('matches the 65 published-key vectors (OpenSSL, key 00..0f, messages 00..n-1)', () => {
    const key = new SipHashKey(Uint8Array.from({ length: 16 }, (_, i) => i));
    vectors.tags.forEach((tag, n) => {
      key.hashBytes(Uint8Array.from({ length: n }, (_, i) => i));
      expect(hex(key.high, key.low), `length ${n}`).toBe(tag);
    });
  });

  it('the prefixed form equals hashing the 8 prefix bytes (little-endian) followed by the data', () => {
    const key = new SipHashKey(Uint8Array.from({ length: 16 }, (_, i) => 3 * i));
    const data = Uint8Array.from({ length: 37 }, (_, i) => (i * 29) & 0xff);
    key.hash(0x01020304, 0xa0b0c0d0, data, 5, 30);
    const got = hex(key.high, key.low);
    const joined = new Uint8Array(8 + 25);
    Buffer.from(joined.buffer).writeUInt32LE(0xa0b0c0d0, 0);
    Buffer.from(joined.buffer).writeUInt32LE(0x01020304, 4);
    joined.set(data.subarray(5, 30), 8);
    key.hashBytes(joined);
    expect(got).toBe(hex(key.high, key.low));
  });

  it('refuses a key that is not 16 bytes', () => {
    expect(() => new SipHashKey(new Uint8Array(15))).toThrow(RangeError);
  });
});

const ping = (id: number) => nativeDatagram(7n, encodeIdFrame(Frame.PING, id));

describe('packet numbers and tags', () => {
  it('numbers datagrams from 0 and the other side opens each once, newest first', () => {
    const sealer = new PacketSealer(TEST_KEYS_A.send);
    const opener = new PacketOpener(TEST_KEYS_B.receive);
    const sent = [0, 1, 2].map((i) => sealDatagram(ping(i), sealer));
    expect(sent.map((d) => d[Native.PN_OFFSET + 3])).toEqual([0, 1, 2]);
    expect(opener.open(sent[0]!)).toBe(Opened.NEWEST);
    expect(opener.open(sent[2]!)).toBe(Opened.NEWEST);
    expect(opener.open(sent[1]!)).toBe(Opened.LATE);
    for (const d of sent) expect(opener.open(d)).toBe(Opened.REPLAY);
    expect(opener.largest).toBe(2);
  });

  it('any changed byte (header, number, frames or tag) fails the tag, and does not burn the real number', () => {
    const sealer = new PacketSealer(TEST_KEYS_A.send);
    const opener = new PacketOpener(TEST_KEYS_A.send);
    const real = sealDatagram(ping(300), sealer);
    for (let at = 0; at < real.length; at++) {
      const bad = Uint8Array.from(real);
      bad[at]! ^= 0x10;
      expect(opener.open(bad), `byte ${at}`).toBe(Opened.BAD_TAG);
    }
    expect(opener.open(real.subarray(0, real.length - 1))).toBe(Opened.BAD_TAG);
    expect(opener.open(real)).toBe(Opened.NEWEST);
  });

  it('a datagram under another key fails the tag (keys from two different handshakes)', () => {
    const [a, b, c] = [generateNativeKeyPair(), generateNativeKeyPair(), generateNativeKeyPair()];
    const clientKeys = deriveNativeKeys(a, b.publicKey, 'client')!;
    const serverKeys = deriveNativeKeys(b, a.publicKey, 'server')!;
    const otherKeys = deriveNativeKeys(c, b.publicKey, 'client')!;
    const d = sealDatagram(ping(1), new PacketSealer(clientKeys.send));
    expect(new PacketOpener(otherKeys.send).open(Uint8Array.from(d))).toBe(Opened.BAD_TAG);
    expect(new PacketOpener(serverKeys.send).open(Uint8Array.from(d))).toBe(Opened.BAD_TAG); // the wrong direction
    expect(new PacketOpener(serverKeys.receive).open(d)).toBe(Opened.NEWEST);
    // The channel binding the lobby's password check uses: alike on both ends, another with another key, no key.
    expect(clientKeys.binding).toHaveLength(32);
    expect(Buffer.from(clientKeys.binding!).equals(Buffer.from(serverKeys.binding!))).toBe(true);
    expect(Buffer.from(otherKeys.binding!).equals(Buffer.from(clientKeys.binding!))).toBe(false);
    for (const key of [clientKeys.send, clientKeys.receive]) {
      expect(Buffer.from(clientKeys.binding!).includes(Buffer.from(key))).toBe(false);
    }
  });

  it('a number more than the replay window behind the newest is refused even if never seen', () => {
    const sealer = new PacketSealer(TEST_KEYS_A.send);
    const opener = new PacketOpener(TEST_KEYS_A.send);
    const old = sealDatagram(ping(0), sealer);
    sealer.next = Native.REPLAY_WINDOW;
    expect(opener.open(sealDatagram(ping(1), sealer))).toBe(Opened.NEWEST);
    expect(opener.open(old)).toBe(Opened.REPLAY);
  });

  it('numbers keep counting past 2^32 on the wire (32 bits carried, all bits tagged)', () => {
    const sealer = new PacketSealer(TEST_KEYS_A.send);
    const opener = new PacketOpener(TEST_KEYS_A.send);
    sealer.next = 2 ** 32 - 2;
    opener.largest = 2 ** 32 - 3;
    const wrapped = [0, 1, 2, 3].map((i) => sealDatagram(ping(i), sealer));
    for (const d of wrapped) expect(opener.open(d)).toBe(Opened.NEWEST);
    expect(opener.largest).toBe(2 ** 32 + 1);
    expect(expandPacketNumber(2 ** 32 + 1, 2 ** 32 - 1)).toBe(2 ** 32 - 1);
    expect(expandPacketNumber(-1, 0)).toBe(0);
    expect(expandPacketNumber(10, 5)).toBe(5);
  });
});
