import { describe, expect, it } from 'vitest';
import { formatNetworkCheckText, reportFileName } from '../../../main/netcheck/reportText';
import type { NetworkCheckReport } from '../../../shared/netcheck/report';
import { SYMMETRIC_NAT, UPNP_ROUTER } from '../../fixtures/natReport';

const report: NetworkCheckReport = {
  version: 1,
  platform: 'win32',
  checkedAt: '2026-03-04T05:06:07.000Z',
  interfaces: [
    {
      name: 'Wi-Fi',
      address: '192.168.1.20',
      netmask: '255.255.255.0',
      prefixLength: 24,
      internal: false,
      broadcast: '192.168.1.255',
      skipped: null,
    },
    {
      name: 'vEthernet',
      address: '172.20.0.1',
      netmask: '255.255.0.0',
      prefixLength: 16,
      internal: false,
      broadcast: null,
      skipped: 'virtual adapter',
    },
  ],
  broadcastTargets: ['192.168.1.255', '127.255.255.255'],
  ports: [
    {
      role: 'discovery',
      port: 9998,
      bindAddress: '0.0.0.0',
      ok: true,
      boundPort: 9998,
      code: null,
      message: 'Listening.',
    },
    {
      role: 'game',
      port: 9000,
      bindAddress: '0.0.0.0',
      ok: false,
      boundPort: null,
      code: 'EADDRINUSE',
      message: 'Another program has it.',
    },
  ],
  selfDiscovery: {
    status: 'not-heard',
    port: 9998,
    targets: ['192.168.1.255'],
    sendFailures: [{ target: '127.255.255.255', code: 'EACCES', message: 'not allowed' }],
    message: 'Nothing came back.',
  },
  receiveBuffer: { requestedBytes: 4, grantedBytes: 2, status: 'clamped', message: 'Smaller than asked.' },
  nat: SYMMETRIC_NAT,
  router: UPNP_ROUTER,
  advice: [
    { id: 'port-game', severity: 'problem', title: 'Game port busy', detail: 'Close it.', commands: [] },
    { id: 'fw', severity: 'warning', title: 'Firewall', detail: 'Allow it.', commands: ['netsh advfirewall …'] },
    { id: 'tip', severity: 'info', title: 'Same network', detail: 'Be on one.', commands: [] },
  ],
  ok: false,
};

describe('formatNetworkCheckText', () => {
  it('puts the app, the log folder and what to fix first, then the facts and the tips', () => {
    const text = formatNetworkCheckText(report, {
      appName: 'LAN Party',
      version: '0.9.0',
      platform: 'win32',
      logsDir: 'C:\\Users\\ada\\AppData\\Roaming\\LAN Party\\logs',
    });
    expect(text.split('\n')).toEqual([
      'LAN Party network check',
      'App:       LAN Party 0.9.0 on win32',
      'Checked:   2026-03-04T05:06:07.000Z',
      'Log files: C:\\Users\\ada\\AppData\\Roaming\\LAN Party\\logs',
      '',
      'Verdict: 1 problem found.',
      '',
      'What to fix:',
      '- Problem: Game port busy',
      '  Close it.',
      '- Warning: Firewall',
      '  Allow it.',
      '    netsh advfirewall …',
      '',
      'Ports:',
      '- Finding rooms: UDP 9998 on 0.0.0.0: OK. Listening.',
      '- Playing: UDP 9000 on 0.0.0.0: problem (EADDRINUSE). Another program has it.',
      '',
      'Discovery self-test: NOT heard on UDP 9998. Nothing came back.',
      '- could not send to 127.255.255.255: EACCES not allowed',
      'Receive buffer: clamped. Smaller than asked.',
      'NAT (internet rooms): symmetric. Symmetric NAT: a relay will be used. Relay.',
      '- 203.0.113.10:3478 saw 203.0.113.1:40000',
      '- 203.0.113.10:3479 saw 203.0.113.1:40001',
      'Router port mapping: nat-pmp, upnp. The router offers NAT-PMP, UPnP IGD. The router (192.168.1.1) offers NAT-PMP, UPnP IGD: internet rooms can open their port there.',
      '',
      'Networks:',
      '- Wi-Fi 192.168.1.20/24: searched via 192.168.1.255',
      '- vEthernet 172.20.0.1/16: not searched (virtual adapter)',
      'Searches go to: 192.168.1.255, 127.255.255.255',
      '',
      'Tips for win32:',
      '- Tip: Same network',
      '  Be on one.',
      '',
    ]);
  });

  it('says how the DHT sees this machine when the report has it', () => {
    const dht = {
      status: 'randomized',
      publicAddress: '203.0.113.1:0',
      title: 'Behind a NAT that changes ports per destination',
      message: 'A relay is needed between two of these.',
    } as const;
    const text = formatNetworkCheckText(
      { ...report, dht },
      { appName: 'LAN Party', version: '1', platform: 'linux', logsDir: null },
    );
    expect(text).toContain(
      '\nDHT (rooms with no router mapping): randomized, seen as 203.0.113.1:0. Behind a NAT that changes ports per destination. A relay is needed between two of these.\n',
    );
  });

  it('says when there are no log files and no networks, and a clean verdict', () => {
    const clean = { ...report, interfaces: [], broadcastTargets: [], advice: [], ok: true };
    const text = formatNetworkCheckText(clean, {
      appName: 'LAN Party',
      version: '1',
      platform: 'linux',
      logsDir: null,
    });
    expect(text).toContain('Log files: none (this run logs to the console only)\n');
    expect(text).toContain('Verdict: This computer is ready for LAN play.\n\nPorts:');
    expect(text).toContain('- no IPv4 network connections found\nSearches go to: nowhere\n');
    expect(text).not.toContain('What to fix');
    expect(text).not.toContain('Tips for');
  });
});

describe('reportFileName', () => {
  it('names the file after when the check ran, and falls back for a malformed time', () => {
    expect(reportFileName('2026-03-04T05:06:07.000Z')).toBe('lan-party-network-check-2026-03-04-0506.txt');
    expect(reportFileName('yesterday')).toBe('lan-party-network-check-report.txt');
  });
});
