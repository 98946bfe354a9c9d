import { describe, expect, it } from 'vitest';
import { packHeader, unpackHeader } from '../../main/net/v1/header';
import { ReservedType, Wire } from '../../main/net/v1/protocol';
import { jsonSerializer } from '../../main/net/v1/serialization';
import { avoidToken, mutate, MutationKind, tokenOf } from '../support/labMutator';
import {
  encodeAckFrame,
  encodeDisconnectFrame,
  encodeFragmentFrame,
  encodeIdFrame,
} from '../../main/net/native/wire/nativeFrames';
import { NativeParseError, parseNativePacket } from '../../main/net/native/wire/nativePacket';
import { Frame, Native } from '../../main/net/native/wire/nativeWire';
import { messageFrame, nativeDatagram } from '../support/labNativePeer';
import { mutateNative, NativeMutationKind, resealed, withToken } from '../support/labNativeMutator';
import { Opened, PacketOpener } from '../../main/net/native/protection/packetProtection';
import { sealDatagram, testSealer, TEST_KEYS_A } from '../support/nativeDatagram';
import { scanFrames } from '../support/labNativeScan';
import { seededRandom } from '../support/seededRandom';

const TOKEN = 0x1122334455667788n;

function real(channel: number, sequence: number, type: string, payload: object = {}): Uint8Array {
  const header = packHeader({ channel, token: TOKEN, sequence, ack: 7, ackBitfield: 3 });
  const body = jsonSerializer.serialize(type, payload);
  const out = new Uint8Array(header.byteLength + body.byteLength);
  out.set(header);
  out.set(body, header.byteLength);
  return out;
}

const corpus = [real(1, 5, 'o', { i: 5 }), real(0, 0, ReservedType.PING, { id: 3 }), real(2, 9, ReservedType.ACK)];

describe('the fuzz mutator (v1)', () => {
  it('is repeatable from its seed and never changes the corpus', () => {
    const copy = corpus.map((d) => new Uint8Array(d));
    const run = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 200 }, () => mutate(corpus, random));
    };
    expect(run(5)).toEqual(run(5));
    expect(run(5)).not.toEqual(run(6));
    expect(corpus).toEqual(copy);
  });

  it('produces every kind, each doing what it says', () => {
    const random = seededRandom(1);
    const seen = new Map<string, Uint8Array[]>();
    for (let i = 0; i < 5000; i++) {
      const m = mutate(corpus, random);
      seen.set(m.kind, [...(seen.get(m.kind) ?? []), m.datagram]);
    }
    expect([...seen.keys()].sort()).toEqual(Object.values(MutationKind).sort());
    const is = (k: MutationKind) => seen.get(k)!;
    expect(is('replay').every((d) => corpus.some((c) => Buffer.from(c).equals(d)))).toBe(true);
    expect(is('truncate').every((d) => d.byteLength < Math.max(...corpus.map((c) => c.byteLength)))).toBe(true);
    expect(is('extend').some((d) => d.byteLength > Wire.MAX_DATAGRAM_SIZE)).toBe(true);
    expect(is('token').some((d) => tokenOf(d) !== TOKEN)).toBe(true);
    expect(is('sequence').some((d) => ![5, 0, 9].includes(unpackHeader(d)!.sequence))).toBe(true);
    expect(is('ack').some((d) => unpackHeader(d)!.ack !== 7)).toBe(true);
    expect(is('channel').some((d) => d[0]! > 2)).toBe(true);
    const invalidJson = (d: Uint8Array) => {
      try {
        jsonSerializer.deserialize(d.subarray(Wire.HEADER_SIZE));
        return false;
      } catch {
        return true;
      }
    };
    expect(is('json').some(invalidJson)).toBe(true);
    expect(is('json').some((d) => !invalidJson(d))).toBe(true);
  });

  it('keeps __disconnect__ out when told to, and avoidToken never leaves the real token', () => {
    const random = seededRandom(2);
    const keep = { allowType: (t: string) => t !== ReservedType.DISCONNECT };
    for (let i = 0; i < 3000; i++) {
      const { datagram } = mutate(corpus, random, keep);
      expect(Buffer.from(datagram).includes(ReservedType.DISCONNECT)).toBe(false);
      if (datagram.byteLength >= Wire.HEADER_SIZE) expect(tokenOf(avoidToken(datagram, TOKEN))).not.toBe(TOKEN);
    }
  });
});

const nativeCorpus = [
  nativeDatagram(TOKEN, [messageFrame(0, 0, 'n', { i: 1 }), messageFrame(1, 5, 'o', { i: 5 })]),
  nativeDatagram(TOKEN, [messageFrame(3, 9, 's', { i: 9 }), encodeAckFrame(1, 7, Uint8Array.of(0x05))]),
  nativeDatagram(TOKEN, [encodeFragmentFrame(2, 10, 1, 3, new Uint8Array(40).fill(0x61))]),
  nativeDatagram(TOKEN, [encodeIdFrame(Frame.PING, 3), encodeIdFrame(Frame.PONG, 4)]),
  nativeDatagram(TOKEN, [encodeAckFrame(2, 1, new Uint8Array(0)), encodeDisconnectFrame('bye')]),
  real(0, 0, ReservedType.CONNECT_REQUEST, { native: { version: Native.VERSION } }),
];

/** The transport's own parse of a datagram: its frames, or undefined when it refuses the datagram. */
function parsed(d: Uint8Array) {
  try {
    return parseNativePacket(d).frames;
  } catch (error) {
    if (error instanceof NativeParseError) return undefined;
    throw error;
  }
}

describe('the fuzz mutator (native)', () => {
  const sample = (seed: number, n: number, keepSession = false) => {
    const random = seededRandom(seed);
    return Array.from({ length: n }, () => mutateNative(nativeCorpus, random, { keepSession }));
  };

  it('is repeatable from its seed and never changes the corpus', () => {
    const copy = nativeCorpus.map((d) => new Uint8Array(d));
    expect(sample(5, 300)).toEqual(sample(5, 300));
    expect(sample(5, 300)).not.toEqual(sample(6, 300));
    expect(nativeCorpus.map((d) => new Uint8Array(d))).toEqual(copy);
  });

  it('produces every kind, each doing what it says', () => {
    const seen = new Map<string, Uint8Array[]>();
    for (const m of sample(1, 8000)) seen.set(m.kind, [...(seen.get(m.kind) ?? []), m.datagram]);
    const byte = [
      MutationKind.REPLAY,
      MutationKind.BIT_FLIP,
      MutationKind.TRUNCATE,
      MutationKind.EXTEND,
      MutationKind.RANDOM,
    ];
    expect([...seen.keys()].sort()).toEqual([...Object.values(NativeMutationKind), ...byte].sort());
    const is = (k: string) => seen.get(k)!;
    const frames = (d: Uint8Array) => scanFrames(d).frames;
    const valueOf = (d: Uint8Array, name: string) => frames(d).flatMap((f) => f.varints.filter((v) => v.name === name));
    const refused = (d: Uint8Array) => parsed(d) === undefined;
    expect(is('native-token').every((d) => tokenOf(d) !== TOKEN)).toBe(true);
    expect(is('frame-kind').some(refused)).toBe(true);
    expect(is('frame-kind').some((d) => !refused(d) && d[0] === Native.MAGIC)).toBe(true);
    expect(is('varint').some(refused)).toBe(true);
    expect(is('varint').some((d) => valueOf(d, 'seq').some((v) => v.value >= 2 ** 31))).toBe(true);
    expect(is('fragment-count').some((d) => valueOf(d, 'count').some((v) => v.value > 3589))).toBe(true);
    expect(is('fragment-count').some((d) => valueOf(d, 'count').some((v) => v.value < 2))).toBe(true);
    expect(is('length').some((d) => !scanFrames(d).complete)).toBe(true);
    expect(is('ack-bitmap').some((d) => valueOf(d, 'bitmapLength').some((v) => v.value > Native.MAX_ACK_BITMAP))).toBe(
      true,
    );
    expect(
      is('ack-bitmap').some((d) =>
        parsed(d)?.some((f) => f.kind === Frame.ACK && f.bitmap.byteLength === Native.MAX_ACK_BITMAP),
      ),
    ).toBe(true);
    expect(
      is('frame-channel').some((d) => frames(d).some((f) => f.channelAt !== undefined && d[f.channelAt]! > 3)),
    ).toBe(true);
    const most = Math.max(...nativeCorpus.map((d) => frames(d).length));
    expect(is('frame-splice').some((d) => (parsed(d)?.length ?? 0) > most)).toBe(true);
    expect(
      is('frame-drop').some((d) => d.byteLength === Native.HEADER_SIZE + Native.TAG_SIZE || frames(d).length < most),
    ).toBe(true);
    expect(is('frame-truncate').every((d) => !scanFrames(d).complete)).toBe(true);
    const badJson = (d: Uint8Array) =>
      parsed(d)?.some((f) => f.kind === Frame.MESSAGE && !/^\{.*\}$/s.test(Buffer.from(f.body).toString('latin1')));
    expect(is('body').some(badJson)).toBe(true);
    const reliableSeqs = (d: Uint8Array) =>
      (parsed(d) ?? []).flatMap((f) =>
        (f.kind === Frame.MESSAGE || f.kind === Frame.FRAGMENT) && f.channel > 0 && f.channel < 3 ? [f.seq] : [],
      );
    // Just past the newest reliable seq of the corpus (5 on channel 1, 10 on channel 2): new data, in the window.
    expect(is('in-window').some((d) => reliableSeqs(d).some((s) => s > 10 && s <= 10 + 64))).toBe(true);
  });

  it('reads frames exactly as the transport does, wherever the transport accepts a datagram', () => {
    let accepted = 0;
    for (const { datagram } of sample(2, 5000)) {
      const theirs = parsed(datagram);
      if (!theirs) continue;
      accepted += 1;
      const ours = scanFrames(datagram);
      expect(ours.complete).toBe(true);
      expect(ours.frames.map((f) => f.kind)).toEqual(theirs.map((f) => f.kind));
    }
    expect(accepted).toBeGreaterThan(1000);
  });

  it('keeps DISCONNECT frames out when told to, and stamps tokens only into native datagrams', () => {
    expect(sample(3, 4000).some((m) => parsed(m.datagram)?.some((f) => f.kind === Frame.DISCONNECT))).toBe(true);
    for (const { datagram } of sample(3, 4000, true)) {
      expect(parsed(datagram)?.some((f) => f.kind === Frame.DISCONNECT) ?? false).toBe(false);
    }
    expect(tokenOf(withToken(nativeCorpus[0]!, 42n))).toBe(42n);
    expect(tokenOf(nativeCorpus[0]!)).toBe(TOKEN);
    expect(withToken(nativeCorpus[5]!, 42n)).toBe(nativeCorpus[5]);
  });

  it('leaves mutations under their old tag (the tag check drops them) unless resealed (then they open)', () => {
    // The corpus as a peer sent it: numbered and tagged under A's send key.
    const sender = testSealer(TEST_KEYS_A.send);
    const sealed = nativeCorpus.map((d) => (d[0] === Native.MAGIC ? sealDatagram(new Uint8Array(d), sender) : d));
    const random = seededRandom(4);
    const counts = { stale: 0, opened: 0 };
    for (let i = 0; i < 2000; i++) {
      const { kind, datagram } = mutateNative(sealed, random);
      if (datagram[0] !== Native.MAGIC || datagram.byteLength < Native.HEADER_SIZE + Native.TAG_SIZE) continue;
      // A receiver that has seen the whole corpus: an exact replay is a replay, anything else a bad tag.
      const receiver = new PacketOpener(TEST_KEYS_A.send);
      for (const d of sealed) if (d[0] === Native.MAGIC) receiver.open(d);
      const unchanged = sealed.some((d) => Buffer.from(d).equals(datagram));
      expect(receiver.open(datagram), kind).toBe(unchanged ? Opened.REPLAY : Opened.BAD_TAG);
      counts.stale += 1;
      // The same bytes sealed again by the sender: authentic and new, so the frame parser is what judges them.
      expect(receiver.open(resealed(datagram, sender)), kind).toBe(Opened.NEWEST);
      counts.opened += 1;
    }
    expect(counts.opened).toBeGreaterThan(1000);
    // resealed copies (the input is untouched) and passes through what cannot carry a tag.
    const first = sealed[0]!;
    const copy = new Uint8Array(first);
    expect(resealed(first, sender)).not.toBe(first);
    expect(first).toEqual(copy);
    const short = Uint8Array.of(Native.MAGIC, 1, 2);
    expect(resealed(short, sender)).toBe(short);
  });
});
