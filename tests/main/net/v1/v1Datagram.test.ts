import { describe, expect, it } from 'vitest';
import vectors from '../../../fixtures/wire.json';
import { packHeader, type PacketHeader } from '../../../../main/net/v1/header';
import { Wire } from '../../../../main/net/v1/protocol';
import { jsonSerializer } from '../../../../main/net/v1/serialization';
import { V1DatagramReader, V1Kind, type V1Datagram } from '../../../../main/net/v1/v1Datagram';

const BIG = 0xfedc_ba98_7654_3210n;

function datagram(header: Partial<PacketHeader>, body: Uint8Array = jsonSerializer.serialize('m', { i: 1 })) {
  const full = { channel: 0, token: 0n, sequence: 0, ack: 0, ackBitfield: 0, ...header };
  const out = new Uint8Array(Wire.HEADER_SIZE + body.length);
  out.set(packHeader(full));
  out.set(body, Wire.HEADER_SIZE);
  return out;
}

const dropReason = (d: V1Datagram) => (d.kind === V1Kind.DROP ? d.reason : `kind ${d.kind}`);

describe('V1DatagramReader: size and channel, either role', () => {
  for (const role of ['server', 'client'] as const) {
    it(`${role}: too short, too long, unknown channel, in that order`, () => {
      const reader = new V1DatagramReader(role);
      expect(dropReason(reader.read(new Uint8Array(Wire.HEADER_SIZE - 1), 5n, jsonSerializer))).toBe('too-short');
      expect(dropReason(reader.read(new Uint8Array(0), 5n, jsonSerializer))).toBe('too-short');
      const long = datagram({ channel: 7, token: 5n }, new Uint8Array(Wire.MAX_DATAGRAM_SIZE));
      expect(dropReason(reader.read(long, 5n, jsonSerializer))).toBe('too-long');
      expect(dropReason(reader.read(datagram({ channel: 3, token: 5n }), 5n, jsonSerializer))).toBe('unknown-channel');
      expect(dropReason(reader.read(datagram({ channel: 0xff, token: 5n }), 5n, jsonSerializer))).toBe(
        'unknown-channel',
      );
    });

    it(`${role}: a body that does not decode is bad-body, after the token checks`, () => {
      const reader = new V1DatagramReader(role);
      const garbage = datagram({ channel: 1, token: 5n }, Uint8Array.of(0x7b, 0x7b));
      expect(dropReason(reader.read(garbage, 5n, jsonSerializer))).toBe('bad-body');
      expect(dropReason(reader.read(garbage, 6n, jsonSerializer))).toBe('bad-token');
    });
  }

  it('accepts the largest datagram the reference reads', () => {
    const reader = new V1DatagramReader('server');
    const body = jsonSerializer.serialize('m', { s: 'x'.repeat(Wire.MAX_DATAGRAM_SIZE - Wire.HEADER_SIZE - 60) });
    const padded = new Uint8Array(Wire.MAX_DATAGRAM_SIZE - Wire.HEADER_SIZE);
    padded.set(body);
    padded.fill(0x20, body.length); // JSON allows trailing whitespace
    expect(reader.read(datagram({ channel: 1, token: 5n }, padded), 5n, jsonSerializer).kind).toBe(V1Kind.MESSAGE);
  });
});

describe('V1DatagramReader as a server', () => {
  it('takes token 0 on the control channel as a handshake, from anyone', () => {
    const reader = new V1DatagramReader('server');
    const request = datagram({}, jsonSerializer.serialize('__connect_request__', {}));
    for (const token of [undefined, 5n]) {
      const d = reader.read(request, token, jsonSerializer);
      expect(d.kind).toBe(V1Kind.HANDSHAKE);
      if (d.kind === V1Kind.HANDSHAKE) expect([d.token, d.message.type]).toEqual([0n, '__connect_request__']);
    }
  });

  it('drops anything else from an unknown source, and a wrong token from a known one', () => {
    const reader = new V1DatagramReader('server');
    expect(dropReason(reader.read(datagram({ channel: 1 }), undefined, jsonSerializer))).toBe('unknown-source');
    expect(dropReason(reader.read(datagram({ token: 5n }), undefined, jsonSerializer))).toBe('unknown-source');
    expect(dropReason(reader.read(datagram({ channel: 2, token: 6n }), 5n, jsonSerializer))).toBe('bad-token');
    // Token 0 off the control channel is no handshake: for a peer with another token it is a bad token.
    expect(dropReason(reader.read(datagram({ channel: 1 }), 5n, jsonSerializer))).toBe('bad-token');
  });

  it('hands over a message with every header field, whatever tokens come in turn', () => {
    const reader = new V1DatagramReader('server');
    const peers = [BIG, 5n, 0xffff_ffff_ffff_ffffn, 1n << 32n];
    for (let round = 0; round < 3; round++) {
      for (const token of peers) {
        const d = reader.read(
          datagram({ channel: 2, token, sequence: 0xffffffff, ack: 7, ackBitfield: 0x80000001 }),
          token,
          jsonSerializer,
        );
        expect(d.kind).toBe(V1Kind.MESSAGE);
        if (d.kind !== V1Kind.MESSAGE) continue;
        expect({ channel: d.channel, sequence: d.sequence, ack: d.ack, ackBitfield: d.ackBitfield }).toEqual({
          channel: 2,
          sequence: 0xffffffff,
          ack: 7,
          ackBitfield: 0x80000001,
        });
        expect(d.message).toEqual({ type: 'm', payload: { i: 1 } });
        // Tokens that differ only in one half are told apart.
        const other = token ^ 1n;
        expect(dropReason(reader.read(datagram({ channel: 2, token: other }), token, jsonSerializer))).toBe(
          'bad-token',
        );
        const high = token ^ (1n << 40n);
        expect(dropReason(reader.read(datagram({ channel: 2, token: high }), token, jsonSerializer))).toBe('bad-token');
      }
    }
  });

  it('reads the reference header vectors as unpackHeader does', () => {
    const reader = new V1DatagramReader('server');
    for (const v of vectors.headers) {
      const bytes = Buffer.concat([Buffer.from(v.hex, 'hex'), Buffer.from('{"type": "m", "payload": {}}')]);
      const token = BigInt(v.token);
      const d = reader.read(bytes, token === 0n ? 1n : token, jsonSerializer);
      expect(d.kind).toBe(token === 0n && v.channel === 0 ? V1Kind.HANDSHAKE : V1Kind.MESSAGE);
      expect(reader.token).toBe(token);
      expect([reader.channel, reader.sequence, reader.ack, reader.ackBitfield]).toEqual([
        v.channel,
        v.sequence,
        v.ack,
        v.ack_bitfield,
      ]);
    }
  });

  it('returns itself: no object per datagram', () => {
    const reader = new V1DatagramReader('server');
    expect(reader.read(datagram({ channel: 1, token: 5n }), 5n, jsonSerializer)).toBe(reader);
    expect(reader.read(new Uint8Array(3), 5n, jsonSerializer)).toBe(reader);
  });
});

describe('V1DatagramReader as a client', () => {
  it('until connected, takes only the control channel, as a handshake with its token', () => {
    const reader = new V1DatagramReader('client');
    const accept = datagram({ token: BIG }, jsonSerializer.serialize('__connect_accepted__', { peer_id: 1 }));
    const d = reader.read(accept, undefined, jsonSerializer);
    expect(d.kind).toBe(V1Kind.HANDSHAKE);
    if (d.kind === V1Kind.HANDSHAKE) expect([d.token, d.message.payload]).toEqual([BIG, { peer_id: 1 }]);
    expect(dropReason(reader.read(datagram({ channel: 1, token: BIG }), undefined, jsonSerializer))).toBe('bad-token');
  });

  it('once connected, takes only its token, on any channel', () => {
    const reader = new V1DatagramReader('client');
    for (const channel of [0, 1, 2]) {
      expect(reader.read(datagram({ channel, token: BIG }), BIG, jsonSerializer).kind).toBe(V1Kind.MESSAGE);
    }
    // A token-0 datagram is no handshake once connected.
    expect(dropReason(reader.read(datagram({}), BIG, jsonSerializer))).toBe('bad-token');
    expect(dropReason(reader.read(datagram({ token: BIG + 1n }), BIG, jsonSerializer))).toBe('bad-token');
  });
});

describe('V1DatagramReader: a server’s admission gate', () => {
  /** jsonSerializer that counts its decodes. */
  function countingSerializer() {
    const counted = { decodes: 0 };
    const serializer = {
      ...jsonSerializer,
      deserialize: (body: Uint8Array) => {
        counted.decodes++;
        return jsonSerializer.deserialize(body);
      },
    };
    return { serializer, counted };
  }

  it('refuses a connect request from a source over its limits before decoding its body', () => {
    const asked: string[] = [];
    const reader = new V1DatagramReader('server', (source) => {
      asked.push(source);
      return source === '10.0.0.9' ? 'prefix-limited' : undefined;
    });
    const { serializer, counted } = countingSerializer();
    const request = datagram({}, jsonSerializer.serialize('__connect_request__', {}));
    expect(dropReason(reader.read(request, undefined, serializer, '10.0.0.9'))).toBe('prefix-limited');
    expect(counted.decodes).toBe(0);
    const admitted = reader.read(request, undefined, serializer, '10.0.0.1');
    expect(admitted.kind).toBe(V1Kind.HANDSHAKE);
    expect(counted.decodes).toBe(1);
    expect(asked).toEqual(['10.0.0.9', '10.0.0.1']);
  });

  it('is not asked about a source that has a connection, nor about a datagram that is no handshake', () => {
    const asked: string[] = [];
    const reader = new V1DatagramReader('server', (source) => {
      asked.push(source);
      return 'source-limited';
    });
    // A repeat from a peer's address (it gets the accept again) and a message with its token: both get through.
    const repeat = datagram({}, jsonSerializer.serialize('__connect_request__', {}));
    expect(reader.read(repeat, 5n, jsonSerializer, '10.0.0.9').kind).toBe(V1Kind.HANDSHAKE);
    expect(reader.read(datagram({ channel: 1, token: 5n }), 5n, jsonSerializer, '10.0.0.9').kind).toBe(V1Kind.MESSAGE);
    // A token from an unknown address is the admitProven path's business, not the gate's.
    expect(dropReason(reader.read(datagram({ channel: 0, token: 5n }), undefined, jsonSerializer, '10.0.0.9'))).toBe(
      'unknown-source',
    );
    expect(asked).toEqual([]);
  });
});
