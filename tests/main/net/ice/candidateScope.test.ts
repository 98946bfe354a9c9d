import { describe, expect, it } from 'vitest';
import { candidateInScope, localSubnets } from '../../../../main/net/ice';

const LAN = [{ cidr: '192.168.1.20/24' }, { cidr: '127.0.0.1/8' }, { cidr: 'fe80::5/64' }];

describe('candidateInScope: where a peer may point our ICE checks', () => {
  it.each(['203.0.113.7', '198.51.100.1', '8.8.8.8', '100.64.0.1', '2001:db8::1'])(
    'any public address: %s',
    (address) => {
      expect(candidateInScope(address, [])).toBe(true);
    },
  );

  it.each([
    '127.0.0.1',
    '127.9.9.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.0.1',
    '169.254.1.1',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
  ])('loopback, private and link-local %s: not when no interface of ours is on it', (address) => {
    expect(candidateInScope(address, [])).toBe(false);
    expect(candidateInScope(address, [{ cidr: '203.0.113.5/24' }])).toBe(false);
  });

  it('a scoped address on one of our subnets (a guest on our LAN, our own loopback) is kept', () => {
    expect(candidateInScope('192.168.1.77', LAN)).toBe(true);
    expect(candidateInScope('127.0.0.1', LAN)).toBe(true);
    expect(candidateInScope('fe80::99', LAN)).toBe(true);
    expect(candidateInScope('192.168.2.77', LAN)).toBe(false);
    expect(candidateInScope('10.1.1.1', LAN)).toBe(false);
    expect(candidateInScope('172.32.0.1', [])).toBe(true); // just past 172.16/12: public
  });

  it('what is not an address, or a malformed subnet, is never in scope', () => {
    expect(candidateInScope('host.local', LAN)).toBe(false);
    expect(candidateInScope('', LAN)).toBe(false);
    expect(candidateInScope('10.0.0.1', [{ cidr: 'garbage' }, { cidr: '10.0.0.0/x' }])).toBe(false);
  });

  it("this machine's subnets include its loopback", () => {
    expect(localSubnets().some(({ cidr }) => cidr.startsWith('127.'))).toBe(true);
  });
});
