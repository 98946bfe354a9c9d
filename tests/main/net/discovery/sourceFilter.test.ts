import { describe, expect, it } from 'vitest';
import type { NetworkInterfacesLike } from '../../../../main/net/discovery';
import { createConnectedSourceFilter, createReplySourceFilter } from '../../../../main/net/discovery/sourceFilter';

const lan = (address: string): NetworkInterfacesLike => ({
  eth0: [{ address, netmask: '255.255.255.0', family: 'IPv4', internal: false }],
});

describe('connected source filter', () => {
  it('accepts loopback and connected subnets only', () => {
    const allowed = createConnectedSourceFilter(
      () => 0,
      () => lan('192.168.5.10'),
    );
    expect(allowed('127.0.0.1')).toBe(true);
    expect(allowed('192.168.5.77')).toBe(true);
    expect(allowed('192.168.6.77')).toBe(false);
    expect(allowed('8.8.8.8')).toBe(false);
  });

  it('re-reads interfaces at most every 2 s, so interface changes are picked up without a syscall flood', () => {
    let now = 0;
    let reads = 0;
    let current = lan('192.168.5.10');
    const allowed = createConnectedSourceFilter(
      () => now,
      () => {
        reads += 1;
        return current;
      },
    );
    for (let i = 0; i < 100; i += 1) allowed('192.168.5.1');
    expect(reads).toBe(1);
    current = lan('10.1.1.1');
    expect(allowed('10.1.1.2')).toBe(false);
    now = 2000;
    expect(allowed('10.1.1.2')).toBe(true);
    expect(reads).toBe(2);
  });

  it('falls back to loopback only when the interface list cannot be read', () => {
    const allowed = createConnectedSourceFilter(
      () => 0,
      () => {
        throw new Error('uv_interface_addresses failed');
      },
    );
    expect(allowed('127.0.0.1')).toBe(true);
    expect(allowed('192.168.5.77')).toBe(false);
  });

  it('trusts explicit unicast targets for replies', () => {
    const allowed = createReplySourceFilter(
      ['198.51.100.7'],
      () => 0,
      () => ({}),
    );
    expect(allowed('198.51.100.7')).toBe(true);
    expect(allowed('198.51.100.8')).toBe(false);
  });
});
