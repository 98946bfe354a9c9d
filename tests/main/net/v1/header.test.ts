import { describe, expect, it } from 'vitest';
import vectors from '../../../fixtures/wire.json';
import { packHeader, unpackHeader, writeHeader } from '../../../../main/net/v1/header';
import { Wire } from '../../../../main/net/v1/protocol';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('header pack/unpack (reference vectors)', () => {
  it.each(vectors.headers)('packs channel $channel token $token seq $sequence', (v) => {
    const header = {
      channel: v.channel,
      token: BigInt(v.token),
      sequence: v.sequence,
      ack: v.ack,
      ackBitfield: v.ack_bitfield,
    };
    expect(hex(packHeader(header))).toBe(v.hex);
    expect(unpackHeader(Buffer.from(v.hex, 'hex'))).toEqual(header);
  });

  it('is exactly 21 bytes and reads from a datagram with a body', () => {
    expect(Wire.HEADER_SIZE).toBe(21);
    const datagram = Buffer.concat([Buffer.from(vectors.headers[1]!.hex, 'hex'), Buffer.from('{"x":1}')]);
    expect(unpackHeader(datagram.subarray(0))?.token).toBe(81985529216486895n);
  });

  it('reads at an offset inside a larger buffer', () => {
    const big = new Uint8Array(40);
    writeHeader(big, { channel: 2, token: 5n, sequence: 7, ack: 6, ackBitfield: 1 }, 10);
    expect(unpackHeader(big.subarray(10))).toEqual({ channel: 2, token: 5n, sequence: 7, ack: 6, ackBitfield: 1 });
  });

  it('returns undefined for anything shorter than a header', () => {
    expect(unpackHeader(new Uint8Array(20))).toBeUndefined();
    expect(unpackHeader(new Uint8Array(0))).toBeUndefined();
  });

  it.each([
    [{ channel: 256 }, /channel/],
    [{ channel: -1 }, /channel/],
    [{ token: -1n }, /token/],
    [{ token: 1n << 64n }, /token/],
    [{ sequence: 2 ** 32 }, /sequence/],
    [{ ack: -1 }, /ack/],
    [{ ackBitfield: 1.5 }, /ackBitfield/],
  ])('refuses out-of-range field %o', (bad, message) => {
    const header = { channel: 0, token: 0n, sequence: 0, ack: 0, ackBitfield: 0, ...bad };
    expect(() => packHeader(header)).toThrow(message);
  });
});
