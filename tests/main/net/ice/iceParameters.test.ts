import { describe, expect, it } from 'vitest';
import {
  createIceSession,
  IceParametersError,
  MAX_REMOTE_CANDIDATES,
  parseIceParameters,
} from '../../../../main/net/ice';
import { checkCandidateLine, ownAddressOf } from '../../../../main/net/ice/iceParameters';

const good = {
  usernameFragment: 'AbC1',
  password: 'abcdefghijklmnopqrstuv',
  candidates: ['3671762214 1 udp 2130706431 203.0.113.20 40000 typ host generation 0 ufrag AbC1'],
};

describe('parseIceParameters (untrusted, from the rendezvous)', () => {
  it('accepts what werift produces', () => {
    expect(parseIceParameters(good)).toEqual(good);
  });

  it.each([
    ['not an object', 'hello', /bad ICE parameters/],
    ['a short ufrag', { ...good, usernameFragment: 'ab' }, /usernameFragment/],
    ['a short password', { ...good, password: 'short' }, /password/],
    ['characters outside ice-char', { ...good, usernameFragment: 'ab c;' }, /usernameFragment/],
    ['no candidate', { ...good, candidates: [] }, /no candidate/],
    [
      'too many candidates',
      { ...good, candidates: Array(MAX_REMOTE_CANDIDATES + 1).fill(good.candidates[0]) },
      /more than 32/,
    ],
    ['a huge candidate line', { ...good, candidates: ['x'.repeat(600)] }, /candidates\.0/],
  ])('refuses %s with a clear error', (_what, value, message) => {
    expect(() => parseIceParameters(value)).toThrow(IceParametersError);
    expect(() => parseIceParameters(value)).toThrow(message);
  });
});

describe('checkCandidateLine', () => {
  it('reads host, srflx and relay UDP IPv4 candidates', () => {
    expect(checkCandidateLine(good.candidates[0]!)).toEqual({ type: 'host', host: '203.0.113.20', port: 40000 });
    expect(checkCandidateLine('1 1 udp 5 203.0.113.10 50000 typ relay raddr 203.0.113.11 rport 1')).toMatchObject({
      type: 'relay',
    });
  });

  it('skips what werift would stall on or drop: mDNS names, IPv6, TCP, prflx', () => {
    expect(checkCandidateLine('1 1 udp 5 abcd.local 50000 typ host')).toBeUndefined();
    expect(checkCandidateLine('1 1 udp 5 2001:db8::1 50000 typ host')).toBeUndefined();
    expect(checkCandidateLine('1 1 tcp 5 203.0.113.9 50000 typ host tcptype passive')).toBeUndefined();
    expect(checkCandidateLine('1 1 udp 5 203.0.113.9 50000 typ prflx')).toBeUndefined();
  });

  it('refuses malformed lines', () => {
    expect(() => checkCandidateLine('garbage')).toThrow(/bad ICE candidate/);
    expect(() => checkCandidateLine('1 1 udp 5 203.0.113.9 70000 typ host')).toThrow(/port/);
    expect(() => checkCandidateLine('1 x udp 5 203.0.113.9 7 typ host')).toThrow(/bad ICE candidate/);
  });
});

describe('createIceSession', () => {
  it('refuses a missing or absurd connect timeout', () => {
    expect(() => createIceSession({ controlling: true, connectTimeoutSeconds: 0 })).toThrow(RangeError);
    expect(() => createIceSession({ controlling: true, connectTimeoutSeconds: Number.NaN })).toThrow(RangeError);
  });

  it('rejects bad remote parameters before touching the network', async () => {
    const session = createIceSession({ controlling: false, connectTimeoutSeconds: 1 });
    await expect(session.connect({ usernameFragment: 'x' })).rejects.toThrow(IceParametersError);
    await session.close();
  });
});

describe('a peer’s own address, from what it sealed', () => {
  const line = (host: string, type: string, port = 5000) => `1 1 udp 100 ${host} ${port} typ ${type}`;

  it('is its first server-reflexive candidate, else its first host candidate, never its relay', () => {
    const relayed = [line('198.51.100.7', 'relay'), line('10.0.0.5', 'host'), line('203.0.113.9', 'srflx')];
    expect(ownAddressOf({ candidates: relayed })).toBe('203.0.113.9');
    expect(ownAddressOf({ candidates: [line('198.51.100.7', 'relay'), line('10.0.0.5', 'host')] })).toBe('10.0.0.5');
    expect(ownAddressOf({ candidates: [`candidate:${line('203.0.113.4', 'srflx')}`] })).toBe('203.0.113.4');
  });

  it('is undefined for parameters that name neither, or are not parameters at all', () => {
    expect(ownAddressOf({ candidates: [line('198.51.100.7', 'relay')] })).toBeUndefined();
    expect(ownAddressOf({ candidates: ['garbage', 42, null] })).toBeUndefined();
    expect(ownAddressOf({ candidates: 'not a list' })).toBeUndefined();
    expect(ownAddressOf({})).toBeUndefined();
  });
});
