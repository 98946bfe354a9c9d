import { describe, expect, it } from 'vitest';
import { platformAdvice, WINDOWS_FIREWALL_RULE } from '../../../main/netcheck/platformAdvice';
import { findingAdvice, type Findings } from '../../../main/netcheck/findingAdvice';
import { networkAdviceSchema } from '../../../shared/netcheck/report';

const context = { discoveryPort: 9998, gamePort: 9000, execPath: 'C:\\Program Files\\LAN Party\\LAN Party.exe' };
const ids = (platform: string) => platformAdvice(platform, context).map((item) => item.id);
const find = (platform: string, id: string) => platformAdvice(platform, context).find((item) => item.id === id);

describe('platformAdvice', () => {
  it('Windows: Private network profile, firewall rule for the exe on private networks, virtual adapters', () => {
    expect(ids('win32')).toEqual([
      'windows-private-network',
      'windows-firewall',
      'windows-virtual-adapters',
      'same-network',
      'manual-join',
    ]);
    expect(find('win32', 'windows-private-network')?.detail).toMatch(/Network profile type" to Private/);
    const firewall = find('win32', 'windows-firewall')!;
    expect(firewall.detail).toMatch(/tick Private/);
    expect(firewall.commands[0]).toBe(
      `netsh advfirewall firewall add rule name="${WINDOWS_FIREWALL_RULE}" dir=in action=allow protocol=UDP ` +
        'program="C:\\Program Files\\LAN Party\\LAN Party.exe" profile=private,domain',
    );
  });

  it('macOS: Local Network permission in System Settings, and testing from Finder', () => {
    expect(ids('darwin')).toEqual([
      'macos-local-network',
      'macos-launch-from-finder',
      'macos-firewall',
      'same-network',
      'manual-join',
    ]);
    expect(find('darwin', 'macos-local-network')?.detail).toContain(
      'System Settings › Privacy & Security › Local Network',
    );
    expect(find('darwin', 'macos-local-network')?.detail).toContain('No route to host');
    expect(find('darwin', 'macos-launch-from-finder')?.detail).toMatch(/Terminal.*Finder/s);
  });

  it('Linux: ufw and firewalld commands for the discovery and game ports', () => {
    expect(ids('linux')).toEqual(['linux-ufw', 'linux-firewalld', 'same-network', 'manual-join']);
    expect(find('linux', 'linux-ufw')?.commands).toEqual(['sudo ufw allow 9998/udp', 'sudo ufw allow 9000/udp']);
    expect(find('linux', 'linux-firewalld')?.commands).toEqual([
      'sudo firewall-cmd --add-port=9998/udp --permanent && sudo firewall-cmd --reload',
      'sudo firewall-cmd --add-port=9000/udp --permanent && sudo firewall-cmd --reload',
    ]);
  });

  it('names each port once when both are the same', () => {
    const advice = platformAdvice('linux', { ...context, gamePort: 9998 });
    expect(advice.find((item) => item.id === 'linux-ufw')?.commands).toEqual(['sudo ufw allow 9998/udp']);
  });

  it('other systems get the ports to open', () => {
    expect(ids('freebsd')).toEqual(['firewall-ports', 'same-network', 'manual-join']);
    expect(find('freebsd', 'firewall-ports')?.detail).toContain('UDP 9998');
  });

  it('every item is valid report data and informational', () => {
    for (const platform of ['win32', 'darwin', 'linux', 'aix']) {
      for (const item of platformAdvice(platform, context)) {
        expect(networkAdviceSchema.parse(item)).toEqual(item);
        expect(item.severity).toBe('info');
      }
    }
  });
});

const healthy: Findings = {
  interfaces: [
    {
      name: 'eth0',
      address: '192.168.1.2',
      netmask: '255.255.255.0',
      prefixLength: 24,
      internal: false,
      broadcast: '192.168.1.255',
      skipped: null,
    },
  ],
  ports: [
    { role: 'discovery', port: 9998, bindAddress: '0.0.0.0', ok: true, boundPort: 9998, code: null, message: 'ok' },
    { role: 'game', port: 9000, bindAddress: '0.0.0.0', ok: true, boundPort: 9000, code: null, message: 'ok' },
  ],
  selfDiscovery: { status: 'heard', port: 9998, targets: ['127.0.0.1'], sendFailures: [], message: 'heard' },
  receiveBuffer: { requestedBytes: 4194304, grantedBytes: 8388608, status: 'ok', message: 'ok' },
};

describe('findingAdvice', () => {
  it('has nothing to say about a healthy machine', () => {
    expect(findingAdvice(healthy, 'linux')).toEqual([]);
  });

  it('turns a busy or forbidden port into a problem with the fix', () => {
    const advice = findingAdvice(
      {
        ...healthy,
        ports: [
          { ...healthy.ports[0]!, ok: false, code: 'EACCES', message: 'Not allowed.' },
          { ...healthy.ports[1]!, ok: false, code: 'EADDRINUSE', message: 'In use.' },
        ],
      },
      'win32',
    );
    expect(advice.map((item) => [item.id, item.severity])).toEqual([
      ['port-discovery', 'problem'],
      ['port-game', 'problem'],
    ]);
    expect(advice[0]?.detail).toMatch(/^Not allowed\. Use a port above 1024/);
    expect(advice[1]?.detail).toMatch(/^In use\. Close the other program \(or room\)/);
  });

  it('reports an unheard or failed self-test, with a loopback hint on Linux', () => {
    for (const status of ['not-heard', 'failed'] as const) {
      const advice = findingAdvice({ ...healthy, selfDiscovery: { ...healthy.selfDiscovery, status } }, 'linux');
      expect(advice.map((item) => item.id)).toEqual(['self-discovery']);
      expect(advice[0]?.commands).toEqual(['sudo nft list ruleset']);
    }
    expect(
      findingAdvice({ ...healthy, selfDiscovery: { ...healthy.selfDiscovery, status: 'skipped' } }, 'linux'),
    ).toEqual([]);
  });

  it('warns when there is no LAN to search', () => {
    const advice = findingAdvice(
      { ...healthy, interfaces: [{ ...healthy.interfaces[0]!, broadcast: null, skipped: 'vpn' }] },
      'darwin',
    );
    expect(advice.map((item) => [item.id, item.severity])).toEqual([['no-lan', 'problem']]);
  });

  it('offers sysctl commands for a clamped buffer on Linux only', () => {
    const clamped = {
      ...healthy,
      receiveBuffer: { ...healthy.receiveBuffer, status: 'clamped' as const, message: 'Small.' },
    };
    const linux = findingAdvice(clamped, 'linux');
    expect(linux.map((item) => [item.id, item.severity])).toEqual([['receive-buffer', 'warning']]);
    expect(linux[0]?.commands).toEqual([
      'sudo sysctl -w net.core.rmem_max=4194304',
      "echo 'net.core.rmem_max=4194304' | sudo tee /etc/sysctl.d/60-lan-party.conf",
    ]);
    expect(findingAdvice(clamped, 'darwin')[0]?.commands).toEqual([]);
  });
});
