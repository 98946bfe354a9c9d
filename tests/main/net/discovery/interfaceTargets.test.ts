import { describe, expect, it } from 'vitest';
import {
  connectedSubnets,
  defaultBroadcastTargets,
  isOnSubnets,
  type NetworkInterfacesLike,
} from '../../../../main/net/discovery';

// Shaped like os.networkInterfaces() on a multi-homed laptop: Wi-Fi, Ethernet, a /32 VPN, Docker, IPv6.
const laptop: NetworkInterfacesLike = {
  lo: [
    { address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', internal: true },
    { address: '::1', netmask: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', family: 'IPv6', internal: true },
  ],
  wlan0: [
    { address: '192.168.1.23', netmask: '255.255.255.0', family: 'IPv4', internal: false },
    { address: 'fe80::1', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', internal: false },
  ],
  eth0: [{ address: '10.20.30.40', netmask: '255.255.252.0', family: 4, internal: false }],
  tun0: [{ address: '100.64.0.7', netmask: '255.255.255.255', family: 'IPv4', internal: false }], // a value only, never sent
  p2p: [{ address: '172.31.0.0', netmask: '255.255.255.254', family: 'IPv4', internal: false }],
  docker0: [{ address: '172.17.0.1', netmask: '255.255.0.0', family: 'IPv4', internal: false }],
  again: [{ address: '192.168.1.99', netmask: '255.255.255.0', family: 'IPv4', internal: false }],
  weird: [{ address: '203.0.113.1', netmask: '0.0.0.0', family: 'IPv4', internal: false }],
  broken: [{ address: 'not-an-ip', netmask: '255.255.255.0', family: 'IPv4', internal: false }],
  gone: undefined,
};

describe('defaultBroadcastTargets', () => {
  it('lists each non-internal IPv4 directed broadcast once, then the limited broadcast (computed, never sent)', () => {
    expect(defaultBroadcastTargets(laptop)).toEqual([
      '192.168.1.255',
      '10.20.31.255',
      '172.17.255.255',
      '255.255.255.255', // a value only, never sent
    ]);
  });

  it('can leave out the limited broadcast', () => {
    expect(defaultBroadcastTargets(laptop, { includeLimitedBroadcast: false })).toEqual([
      '192.168.1.255',
      '10.20.31.255',
      '172.17.255.255',
    ]);
  });

  it('accepts the numeric family of Node 18.0-18.3 and handles no interfaces', () => {
    expect(
      defaultBroadcastTargets({ e: [{ address: '10.0.0.5', netmask: '255.0.0.0', family: 4, internal: false }] }),
    ).toEqual(['10.255.255.255', '255.255.255.255']); // a value only, never sent
    expect(defaultBroadcastTargets({})).toEqual(['255.255.255.255']); // a value only, never sent
    expect(defaultBroadcastTargets({}, { includeLimitedBroadcast: false })).toEqual([]);
  });
});

describe('connected subnets', () => {
  const subnets = connectedSubnets(laptop);

  it.each([
    ['127.0.0.1', true],
    ['127.200.1.1', true],
    ['192.168.1.200', true],
    ['10.20.28.1', true],
    ['10.20.32.1', false],
    ['100.64.0.7', true],
    ['100.64.0.8', false],
    ['172.17.44.2', true],
    ['8.8.8.8', false],
    ['203.0.113.50', false],
    ['::ffff:192.168.1.7', true],
    ['fe80::2', false],
    ['garbage', false],
  ])('%s is connected: %s', (address, expected) => {
    expect(isOnSubnets(address, subnets)).toBe(expected);
  });

  it('always includes loopback, even with no interfaces', () => {
    expect(isOnSubnets('127.0.0.1', connectedSubnets({}))).toBe(true);
    expect(isOnSubnets('192.168.1.1', connectedSubnets({}))).toBe(false);
  });
});
