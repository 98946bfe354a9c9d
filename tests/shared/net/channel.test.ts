import { describe, expect, it } from 'vitest';
import {
  Channel,
  CHANNEL_COUNT,
  CHANNEL_POLICY,
  ChannelPolicies,
  RELIABLE_CHANNELS,
  isChannel,
  isReliableChannel,
  policiesById,
  type ChannelPolicyFields,
} from '../../../shared/net/channel';

const plain = { reliable: false, ordered: false, sequenced: false, inV1: true } as const;
const ok: Record<string, ChannelPolicyFields> = {
  A: { ...plain, id: 0, nativeWire: 0, v1Wire: 0 },
  B: { ...plain, id: 1, reliable: true, ordered: true, nativeWire: 1, v1Wire: 1 },
  C: { ...plain, id: 2, sequenced: true, nativeWire: 9, v1Wire: 0, inV1: false },
};

describe('the channel table', () => {
  it('names every channel by its id, as applications pass it', () => {
    // The ids applications already pass never change; a new channel only adds one.
    expect(Channel).toMatchObject({
      UNRELIABLE: 0,
      RELIABLE_ORDERED: 1,
      RELIABLE_UNORDERED: 2,
      UNRELIABLE_SEQUENCED: 3,
    });
    for (const [name, p] of Object.entries(ChannelPolicies)) {
      expect(Channel[name as keyof typeof Channel]).toBe(p.id);
      expect(CHANNEL_POLICY[p.id]).toBe(p);
    }
    expect(CHANNEL_COUNT).toBe(Object.keys(ChannelPolicies).length);
  });

  it('derives the reliable channels and answers isReliableChannel from the policies', () => {
    expect(RELIABLE_CHANNELS).toEqual(CHANNEL_POLICY.filter((p) => p.reliable).map((p) => p.id));
    expect(RELIABLE_CHANNELS).toEqual(expect.arrayContaining([Channel.RELIABLE_ORDERED, Channel.RELIABLE_UNORDERED]));
    for (const p of CHANNEL_POLICY) expect(isReliableChannel(p.id)).toBe(p.reliable);
    expect(isReliableChannel(9 as Channel)).toBe(false);
  });

  it('tells channel ids from anything else', () => {
    for (const p of CHANNEL_POLICY) expect(isChannel(p.id)).toBe(true);
    for (const bad of [-1, CHANNEL_COUNT, 1.5, NaN, '1', null, undefined, 1n]) expect(isChannel(bad)).toBe(false);
  });

  it('keeps the gale.net v1 channels where the reference has them', () => {
    const v1 = CHANNEL_POLICY.filter((p) => p.inV1).map((p) => [p.v1Wire, p.reliable, p.ordered]);
    expect(v1).toEqual([
      [0, false, false],
      [1, true, true],
      [2, true, false],
    ]);
  });
});

describe('policiesById: a table is checked before the transport uses it', () => {
  it('returns a well-formed table by id', () => {
    expect(policiesById(ok)).toEqual([ok.A, ok.B, ok.C]);
  });

  it.each([
    ['ids with a gap', { ...ok, C: { ...ok.C!, id: 3 } }, /C: id 3 is not in 0…2/],
    ['a repeated id', { ...ok, C: { ...ok.C!, id: 1 } }, /C: id 1 is taken/],
    ['a fractional id', { ...ok, C: { ...ok.C!, id: 1.5 } }, /C: id 1.5/],
    ['an ordered unreliable channel', { ...ok, A: { ...ok.A!, ordered: true } }, /A: only a reliable channel/],
    ['a reliable sequenced channel', { ...ok, B: { ...ok.B!, sequenced: true } }, /B: a reliable channel cannot/],
    ['a wire id that is no byte', { ...ok, C: { ...ok.C!, nativeWire: 256 } }, /C: nativeWire 256 is not a byte/],
    ['a repeated native wire byte', { ...ok, C: { ...ok.C!, nativeWire: 1 } }, /nativeWire 1 is also/],
    ['a v1 byte no v1 channel owns', { ...ok, C: { ...ok.C!, v1Wire: 7 } }, /C: v1Wire 7 must belong/],
    ['two v1 channels on one byte', { ...ok, C: { ...ok.C!, inV1: true } }, /v1Wire 0 must belong to exactly one/],
    [
      'a reliable channel v1 would carry unreliably',
      { ...ok, C: { ...ok.C!, sequenced: false, reliable: true } },
      /C: on v1 it would travel unreliable, as A/,
    ],
  ])('refuses %s', (_what, table, message) => {
    expect(() => policiesById(table)).toThrow(message);
  });
});
