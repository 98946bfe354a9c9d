import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DENIED_PEER_RANGES, relayPolicyArgs } from './coturn';

describe('the coturn relay policy', () => {
  const readme = readFileSync('README.md', 'utf8');
  const command = /```sh\n(turnserver[\s\S]*?)\n[A-Z_]+=/.exec(readme)?.[1] ?? '';

  it('the README command denies every range the lab coturn denies, and relays no TCP', () => {
    expect(command).toContain('turnserver');
    for (const range of DENIED_PEER_RANGES) expect(command).toContain(`--denied-peer-ip ${range}`);
    expect(command.match(/--denied-peer-ip/g)).toHaveLength(DENIED_PEER_RANGES.length);
    expect(command).toContain('--no-tcp-relay');
    expect(relayPolicyArgs()).toContain('--no-tcp-relay');
  });

  it('covers loopback, private, CGNAT, link-local and unspecified IPv4, and IPv6 loopback, ULA and link-local', () => {
    for (const range of [
      '0.0.0.0-0.255.255.255',
      '127.0.0.0-127.255.255.255',
      '10.0.0.0-10.255.255.255',
      '172.16.0.0-172.31.255.255',
      '192.168.0.0-192.168.255.255',
      '100.64.0.0-100.127.255.255',
      '169.254.0.0-169.254.255.255',
      '::1-::1',
      'fc00::-fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
      'fe80::-febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    ]) {
      expect(DENIED_PEER_RANGES).toContain(range);
    }
  });
});
