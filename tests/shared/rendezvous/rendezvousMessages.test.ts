import { describe, expect, it } from 'vitest';
import {
  RENDEZVOUS_LIMITS,
  RENDEZVOUS_VERSION,
  RendezvousErrorCode,
  clientMessageSchema,
  frameMessage,
  parseRendezvousMessage,
  iceParametersSchema,
  serviceMessageSchema,
} from '../../../shared/rendezvous';

const pake = 'P'.repeat(94);
const ice = {
  usernameFragment: 'abcd',
  password: 'p'.repeat(22),
  candidates: ['1 1 udp 2130706431 127.0.0.1 50000 typ host'],
};

describe('rendezvous messages', () => {
  it('parses a framed join, answer and confirmation: key-agreement messages only; ICE and TURN come later', () => {
    const join = parseRendezvousMessage(frameMessage({ kind: 'join', roomId: '7K2MQ9', pake }), clientMessageSchema);
    expect(join).toEqual({ ok: true, message: { v: RENDEZVOUS_VERSION, kind: 'join', roomId: '7K2MQ9', pake } });
    const answer = parseRendezvousMessage(
      frameMessage({ kind: 'answer', joinId: 'j'.repeat(16), pake }),
      serviceMessageSchema,
    );
    expect(answer.ok).toBe(true);
    const confirm = frameMessage({ kind: 'confirm', joinId: 'j'.repeat(16), pake });
    expect(parseRendezvousMessage(confirm, clientMessageSchema).ok).toBe(true);
    // Version 3's answer carried the guest's TURN grant and its confirmation the guest's ICE: neither is taken now.
    const raw = (body: object) => JSON.stringify({ v: RENDEZVOUS_VERSION, joinId: 'j'.repeat(16), pake, ...body });
    const answerWithTurn = raw({ kind: 'answer', turn: null });
    expect(parseRendezvousMessage(answerWithTurn, serviceMessageSchema).ok).toBe(false);
    const confirmWithIce = raw({ kind: 'confirm', sealed: 's'.repeat(60) });
    expect(parseRendezvousMessage(confirmWithIce, clientMessageSchema).ok).toBe(false);
    // A join that carries ICE in clear is not a message of this protocol.
    const clear = JSON.stringify({ v: RENDEZVOUS_VERSION, kind: 'join', roomId: '7K2MQ9', pake, ice });
    expect(parseRendezvousMessage(clear, clientMessageSchema).ok).toBe(false);
  });

  it('refuses non-JSON, another version, unknown kinds and unknown keys', () => {
    expect(parseRendezvousMessage('{', clientMessageSchema)).toMatchObject({
      ok: false,
      code: RendezvousErrorCode.MALFORMED,
    });
    // Versions 2 and 3 (a guest's TURN grant before it proved the code) are not spoken any more: a clear refusal,
    // not a silent mix.
    for (const old of [2, 3]) {
      expect(parseRendezvousMessage(`{"v":${old},"kind":"ping"}`, clientMessageSchema)).toMatchObject({
        ok: false,
        code: RendezvousErrorCode.UNSUPPORTED_VERSION,
      });
    }
    expect(parseRendezvousMessage('{"v":4,"kind":"welcome","relays":[]}', clientMessageSchema).ok).toBe(false);
    expect(parseRendezvousMessage('{"v":4,"kind":"welcome","relays":[]}', serviceMessageSchema).ok).toBe(true);
    expect(parseRendezvousMessage('{"v":4,"kind":"welcome","turn":null}', serviceMessageSchema).ok).toBe(false);
    expect(parseRendezvousMessage('{"v":4,"kind":"ping","extra":1}', clientMessageSchema)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/extra/),
    });
  });

  it('bounds the message size, the key-agreement and sealed strings, and ICE parameters (inside a seal)', () => {
    const huge = ' '.repeat(RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES + 1);
    expect(parseRendezvousMessage(huge, clientMessageSchema)).toMatchObject({
      ok: false,
      code: RendezvousErrorCode.TOO_LARGE,
    });
    const join = (p: unknown) => frameMessage({ kind: 'join', roomId: '7K2MQ9', pake: p } as never);
    for (const bad of ['short', 'P'.repeat(401), `${'P'.repeat(60)}=`]) {
      expect(parseRendezvousMessage(join(bad), clientMessageSchema).ok).toBe(false);
    }
    const signal = (sealed: string) => frameMessage({ kind: 'signal', joinId: 'j'.repeat(16), sealed });
    expect(
      parseRendezvousMessage(signal('s'.repeat(RENDEZVOUS_LIMITS.MAX_SEALED_CHARS + 1)), clientMessageSchema).ok,
    ).toBe(false);
    expect(iceParametersSchema.safeParse(ice).success).toBe(true);
    const tooMany = { ...ice, candidates: Array(RENDEZVOUS_LIMITS.MAX_CANDIDATES + 1).fill('c') };
    expect(iceParametersSchema.safeParse(tooMany).success).toBe(false);
    expect(iceParametersSchema.safeParse({ ...ice, candidates: ['a\nb'] }).success).toBe(false);
  });

  it('refuses a room id outside the alphabet and a register with half a room', () => {
    const bad = frameMessage({ kind: 'join', roomId: '7K2MQU', pake });
    expect(parseRendezvousMessage(bad, clientMessageSchema).ok).toBe(false);
    const half = JSON.stringify({ v: RENDEZVOUS_VERSION, kind: 'register', room: { roomId: '7K2MQ9' } });
    expect(parseRendezvousMessage(half, clientMessageSchema).ok).toBe(false);
  });
});
