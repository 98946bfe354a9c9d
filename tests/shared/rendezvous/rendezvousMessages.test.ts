import { describe, expect, it } from 'vitest';
import {
  RENDEZVOUS_LIMITS,
  RendezvousErrorCode,
  clientMessageSchema,
  frameMessage,
  parseRendezvousMessage,
  serviceMessageSchema,
  type PeerOffer,
} from '../../../shared/rendezvous';

const offer: PeerOffer = {
  ice: {
    usernameFragment: 'abcd',
    password: 'p'.repeat(22),
    candidates: ['1 1 udp 2130706431 127.0.0.1 50000 typ host'],
  },
  publicKey: `${'A'.repeat(42)}A`,
  nonce: 'n'.repeat(22),
};

describe('rendezvous messages', () => {
  it('parses a framed join and a framed answer', () => {
    const join = parseRendezvousMessage(frameMessage({ kind: 'join', roomId: '7K2MQ9', offer }), clientMessageSchema);
    expect(join).toEqual({ ok: true, message: { v: 1, kind: 'join', roomId: '7K2MQ9', offer } });
    const answer = parseRendezvousMessage(
      frameMessage({ kind: 'answer', joinId: 'j'.repeat(16), answer: offer }),
      serviceMessageSchema,
    );
    expect(answer.ok).toBe(true);
  });

  it('refuses non-JSON, another version, unknown kinds and unknown keys', () => {
    expect(parseRendezvousMessage('{', clientMessageSchema)).toMatchObject({
      ok: false,
      code: RendezvousErrorCode.MALFORMED,
    });
    expect(parseRendezvousMessage('{"v":2,"kind":"ping"}', clientMessageSchema)).toMatchObject({
      ok: false,
      code: RendezvousErrorCode.UNSUPPORTED_VERSION,
    });
    expect(parseRendezvousMessage('{"v":1,"kind":"welcome","turn":null}', clientMessageSchema).ok).toBe(false);
    expect(parseRendezvousMessage('{"v":1,"kind":"ping","extra":1}', clientMessageSchema)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/extra/),
    });
  });

  it('bounds the message size, the candidate count and each string', () => {
    const huge = ' '.repeat(RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES + 1);
    expect(parseRendezvousMessage(huge, clientMessageSchema)).toMatchObject({
      ok: false,
      code: RendezvousErrorCode.TOO_LARGE,
    });
    const tooMany = {
      ...offer,
      ice: { ...offer.ice, candidates: Array(RENDEZVOUS_LIMITS.MAX_CANDIDATES + 1).fill('c') },
    };
    const join = (o: unknown) => frameMessage({ kind: 'join', roomId: '7K2MQ9', offer: o } as never);
    expect(parseRendezvousMessage(join(tooMany), clientMessageSchema).ok).toBe(false);
    const longLine = {
      ...offer,
      ice: { ...offer.ice, candidates: ['c'.repeat(RENDEZVOUS_LIMITS.MAX_CANDIDATE_CHARS + 1)] },
    };
    expect(parseRendezvousMessage(join(longLine), clientMessageSchema).ok).toBe(false);
    expect(parseRendezvousMessage(join({ ...offer, publicKey: 'A'.repeat(44) }), clientMessageSchema).ok).toBe(false);
    expect(parseRendezvousMessage(join({ ...offer, nonce: 'short' }), clientMessageSchema).ok).toBe(false);
    expect(
      parseRendezvousMessage(join({ ...offer, ice: { ...offer.ice, candidates: ['a\nb'] } }), clientMessageSchema).ok,
    ).toBe(false);
  });

  it('refuses a room id outside the alphabet and a register with half a room', () => {
    const bad = frameMessage({ kind: 'join', roomId: '7K2MQU', offer });
    expect(parseRendezvousMessage(bad, clientMessageSchema).ok).toBe(false);
    const half = JSON.stringify({ v: 1, kind: 'register', room: { roomId: '7K2MQ9' } });
    expect(parseRendezvousMessage(half, clientMessageSchema).ok).toBe(false);
  });
});
