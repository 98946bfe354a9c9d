import { describe, expect, it } from 'vitest';
import { networkCheckReportSchema, type NetworkCheckReport } from '../../../shared/netcheck/report';
import { LAN_PARTY_PORTS } from '../../../shared/netcheck/ports';
import { SYMMETRIC_NAT, UPNP_ROUTER } from '../../fixtures/natReport';

const report: NetworkCheckReport = {
  version: 1,
  platform: 'linux',
  checkedAt: '2025-01-31T20:15:00.000Z',
  interfaces: [
    {
      name: 'eth0',
      address: '192.168.1.20',
      netmask: '255.255.255.0',
      prefixLength: 24,
      internal: false,
      broadcast: '192.168.1.255',
      skipped: null,
    },
    {
      name: 'lo',
      address: '127.0.0.1',
      netmask: '255.0.0.0',
      prefixLength: 8,
      internal: true,
      broadcast: null,
      skipped: 'loopback',
    },
  ],
  broadcastTargets: ['192.168.1.255', '127.255.255.255'],
  ports: [
    { role: 'discovery', port: 9998, bindAddress: '0.0.0.0', ok: true, boundPort: 9998, code: null, message: 'ok' },
    {
      role: 'game',
      port: 9000,
      bindAddress: '0.0.0.0',
      ok: false,
      boundPort: null,
      code: 'EADDRINUSE',
      message: 'busy',
    },
  ],
  selfDiscovery: { status: 'heard', port: 9998, targets: ['127.255.255.255'], sendFailures: [], message: 'heard' },
  receiveBuffer: { requestedBytes: 4194304, grantedBytes: 425984, status: 'clamped', message: 'small' },
  nat: SYMMETRIC_NAT,
  router: UPNP_ROUTER,
  advice: [{ id: 'linux-ufw', severity: 'info', title: 'ufw', detail: 'open', commands: ['sudo ufw allow 9998/udp'] }],
  ok: false,
};

describe('networkCheckReportSchema', () => {
  it('accepts a complete report and returns it unchanged', () => {
    expect(networkCheckReportSchema.parse(report)).toEqual(report);
  });

  it('survives a JSON round trip (plain data, fit for IPC)', () => {
    expect(networkCheckReportSchema.parse(JSON.parse(JSON.stringify(report)))).toEqual(report);
  });

  it.each([
    ['an unknown version', { ...report, version: 2 }],
    ['a time that is not ISO 8601', { ...report, checkedAt: 'yesterday' }],
    ['a port out of range', { ...report, ports: [{ ...report.ports[0]!, port: 70000 }] }],
    ['an unknown port role', { ...report, ports: [{ ...report.ports[0]!, role: 'voice' }] }],
    ['an unknown self-test status', { ...report, selfDiscovery: { ...report.selfDiscovery, status: 'maybe' } }],
    ['a negative buffer size', { ...report, receiveBuffer: { ...report.receiveBuffer, grantedBytes: -1 } }],
    ['an unknown advice severity', { ...report, advice: [{ ...report.advice[0]!, severity: 'fatal' }] }],
    ['a prefix longer than 32 bits', { ...report, interfaces: [{ ...report.interfaces[0]!, prefixLength: 33 }] }],
    ['a missing field', (({ receiveBuffer: _dropped, ...rest }) => rest)(report)],
  ])('rejects %s', (_what, bad) => {
    expect(networkCheckReportSchema.safeParse(bad).success).toBe(false);
  });
});

describe('LAN_PARTY_PORTS', () => {
  it('fixes discovery on gale.net’s 9998 and the game on 9000', () => {
    expect(LAN_PARTY_PORTS).toEqual({ DISCOVERY: 9998, GAME: 9000 });
  });
});
