import { describe, expect, it } from 'vitest';
import { describeInterfaces } from '../../../main/netcheck/interfaceReport';
import { DISCOVERY, defaultBroadcastTargets, type NetworkInterfacesLike } from '../../../main/net/discovery';
import { LAN_PARTY_PORTS } from '../../../shared/netcheck/ports';

const v4 = (address: string, netmask: string, internal = false) => ({ address, netmask, family: 'IPv4', internal });

const machine: NetworkInterfacesLike = {
  lo: [
    v4('127.0.0.1', '255.0.0.0', true),
    { address: '::1', netmask: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', family: 'IPv6', internal: true },
  ],
  eth0: [
    v4('192.168.1.20', '255.255.255.0'),
    { address: 'fe80::1', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', internal: false },
  ],
  // Node 18.0–18.3 reported the family as a number.
  wlan0: [{ address: '10.20.30.40', netmask: '255.255.0.0', family: 4, internal: false }],
  tun0: [v4('10.8.0.6', '255.255.255.255')],
  p2p: [v4('172.16.0.1', '255.255.255.254')],
  odd: [v4('44.1.2.3', '128.0.0.0'), v4('not-an-ip', '255.255.255.0')],
  down: undefined,
};

describe('describeInterfaces', () => {
  const rows = describeInterfaces(machine);
  const byAddress = (address: string) => rows.find((row) => row.address === address);

  it('lists every IPv4 address (IPv6 left out: discovery is IPv4)', () => {
    expect(rows.map((row) => `${row.name} ${row.address}`)).toEqual([
      'lo 127.0.0.1',
      'eth0 192.168.1.20',
      'wlan0 10.20.30.40',
      'tun0 10.8.0.6',
      'p2p 172.16.0.1',
      'odd 44.1.2.3',
      'odd not-an-ip',
    ]);
  });

  it('gives each LAN its directed broadcast and prefix', () => {
    expect(byAddress('192.168.1.20')).toEqual({
      name: 'eth0',
      address: '192.168.1.20',
      netmask: '255.255.255.0',
      prefixLength: 24,
      internal: false,
      broadcast: '192.168.1.255',
      skipped: null,
    });
    expect(byAddress('10.20.30.40')).toMatchObject({ prefixLength: 16, broadcast: '10.20.255.255', skipped: null });
  });

  it('says why loopback, /31–/32, too-wide and unreadable entries are not searched', () => {
    expect(byAddress('127.0.0.1')).toMatchObject({ broadcast: null, skipped: 'loopback: only this machine' });
    expect(byAddress('10.8.0.6')).toMatchObject({
      prefixLength: 32,
      broadcast: null,
      skipped: expect.stringMatching(/VPN/),
    });
    expect(byAddress('172.16.0.1')).toMatchObject({ prefixLength: 31, broadcast: null });
    expect(byAddress('44.1.2.3')).toMatchObject({
      prefixLength: 1,
      broadcast: null,
      skipped: expect.stringMatching(/too wide/),
    });
    expect(byAddress('not-an-ip')).toMatchObject({
      prefixLength: null,
      broadcast: null,
      skipped: 'unreadable address or netmask',
    });
  });

  it('searches exactly the subnets discovery sends to', () => {
    const searched = rows.flatMap((row) => (row.broadcast ? [row.broadcast] : []));
    expect(searched).toEqual(defaultBroadcastTargets(machine, { includeLimitedBroadcast: false }));
  });

  it('is empty for a machine without interfaces', () => {
    expect(describeInterfaces({})).toEqual([]);
  });
});

describe('fixed ports', () => {
  it('the shared discovery port is the transport’s default', () => {
    expect(LAN_PARTY_PORTS.DISCOVERY).toBe(DISCOVERY.DEFAULT_PORT);
  });
});
