import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, parseHostLiteral } from '../../../../main/conditioner/relay/loopback';

describe('parseHostLiteral', () => {
  it.each([
    ['localhost', '127.0.0.1', 'IPv4'],
    ['127.0.0.1', '127.0.0.1', 'IPv4'],
    ['::1', '::1', 'IPv6'],
    ['[::1]', '::1', 'IPv6'],
    ['0:0:0:0:0:0:0:1', '::1', 'IPv6'],
    ['2001:DB8:0:0:1:0:0:1', '2001:db8::1:0:0:1', 'IPv6'],
  ])('reads %s as %s (%s), in the form the kernel reports', (host, address, family) => {
    expect(parseHostLiteral(host, 'target')).toEqual({ address, family });
  });

  it.each(['example.com', '', '127.0.0', '1.2.3.4.5', '[::1', ':::1'])('refuses %j with a clear message', (host) => {
    expect(() => parseHostLiteral(host, 'target.host')).toThrow(
      `target.host must be an IP address or 'localhost', got ${JSON.stringify(host)}`,
    );
  });
});

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.3.4', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['128.0.0.1', false],
    ['0.0.0.0', false],
    ['192.168.1.10', false],
    ['255.255.255.255', false], // a value only, never sent
    ['::', false],
    ['::ffff:10.0.0.1', false],
    ['fe80::1', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackAddress(parseHostLiteral(host, 'h'))).toBe(expected);
  });
});
