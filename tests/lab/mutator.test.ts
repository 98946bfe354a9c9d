import { describe, expect, it } from 'vitest';
import { ReservedType, Wire, packHeader, unpackHeader } from '../../main/net/index';
import { jsonSerializer } from '../../main/net/serialization';
import { avoidToken, mutate, MutationKind, tokenOf } from '../support/labMutator';
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

describe('the fuzz mutator', () => {
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
