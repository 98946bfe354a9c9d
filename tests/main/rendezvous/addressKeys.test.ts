import { describe, expect, it } from 'vitest';
import { addressKeysOf } from '../../../main/rendezvous/addressKeys';

describe('rendezvous address keys', () => {
  it('count IPv4 per address and /24, an IPv4-mapped address as IPv4', () => {
    expect(addressKeysOf('198.51.100.7')).toEqual({ address: '198.51.100.7', prefix: '198.51.100.0/24' });
    expect(addressKeysOf('::ffff:198.51.100.7')).toEqual(addressKeysOf('198.51.100.7'));
  });

  it('count IPv6 per /64 and /56, however the address is written', () => {
    const keys = { address: '2001:db8:aa:1b00::/64', prefix: '2001:db8:aa:1b00::/56' };
    expect(addressKeysOf('2001:db8:aa:1b00::1')).toEqual(keys);
    expect(addressKeysOf('2001:0DB8:00aa:1B00:dead:beef:0:7')).toEqual(keys);
    expect(addressKeysOf('2001:db8:aa:1b00:1:2:3.4.5.6')).toEqual(keys);
    expect(addressKeysOf('2001:db8:aa:1b07::9')).toEqual({ address: '2001:db8:aa:1b07::/64', prefix: keys.prefix });
    expect(addressKeysOf('2001:db8:aa:1c00::9').prefix).not.toBe(keys.prefix);
    expect(addressKeysOf('::1')).toEqual({ address: '0:0:0:0::/64', prefix: '0:0:0:0::/56' });
    expect(addressKeysOf('64:ff9b::192.0.2.1').address).toBe('64:ff9b:0:0::/64');
  });

  it('leave anything else as it is', () => {
    expect(addressKeysOf('unknown')).toEqual({ address: 'unknown', prefix: 'unknown' });
  });
});
