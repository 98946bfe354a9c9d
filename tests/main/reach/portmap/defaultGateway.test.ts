import { describe, expect, it } from 'vitest';
import {
  findDefaultGateways,
  parseBsdRouteGet,
  parseLinuxRouteTable,
  parseWindowsRoutePrint,
} from '../../../../main/reach/portmap/defaultGateway';

const LINUX = `Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
eth0\t00000000\t014DA8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0
eth0\t004DA8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0
`;

const MAC = `   route to: default
destination: default
       mask: default
    gateway: 192.168.1.1
  interface: en0
      flags: <UP,GATEWAY,DONE,STATIC,PRCLONING>
`;

const WINDOWS = `===========================================================================
IPv4 Route Table
===========================================================================
Active Routes:
Network Destination        Netmask          Gateway       Interface  Metric
          0.0.0.0          0.0.0.0      10.0.0.1       10.0.0.23     50
          0.0.0.0          0.0.0.0      192.168.0.1    192.168.0.100     25
        127.0.0.0        255.0.0.0         On-link         127.0.0.1    331
===========================================================================
`;

describe('default gateway', () => {
  it('Linux /proc/net/route: default routes with the gateway flag, little-endian hex, lowest metric first', () => {
    expect(parseLinuxRouteTable(LINUX)).toEqual(['192.168.77.1', '192.168.1.1']);
    expect(parseLinuxRouteTable(LINUX.split('\n').slice(0, 1).join('\n'))).toEqual([]);
  });

  it('macOS `route -n get default`: the gateway line, only when it is an address', () => {
    expect(parseBsdRouteGet(MAC)).toEqual(['192.168.1.1']);
    expect(parseBsdRouteGet(MAC.replace('192.168.1.1', 'link#4'))).toEqual([]);
    expect(parseBsdRouteGet('route: writing to routing socket: not in table')).toEqual([]);
  });

  it('Windows `route print -4`: 0.0.0.0/0 rows, lowest metric first, On-link skipped', () => {
    expect(parseWindowsRoutePrint(WINDOWS)).toEqual(['192.168.0.1', '10.0.0.1']);
    expect(parseWindowsRoutePrint(WINDOWS.replace('192.168.0.1 ', 'On-link     '))).toEqual(['10.0.0.1']);
  });

  it('reads the table the platform has and says [] when it cannot', async () => {
    const asked: string[] = [];
    const source = {
      readFile: async (path: string) => (asked.push(path), LINUX),
      run: async (command: string, args: readonly string[]) => {
        asked.push(`${command} ${args.join(' ')}`);
        return command === 'route' && args[0] === 'print' ? WINDOWS : MAC;
      },
    };
    expect(await findDefaultGateways('linux', source)).toEqual(['192.168.77.1', '192.168.1.1']);
    expect(await findDefaultGateways('darwin', source)).toEqual(['192.168.1.1']);
    expect(await findDefaultGateways('win32', source)).toEqual(['192.168.0.1', '10.0.0.1']);
    expect(asked).toEqual(['/proc/net/route', 'route -n get default', 'route print -4']);
    const broken = {
      readFile: () => Promise.reject(new Error('EACCES')),
      run: () => Promise.reject(new Error('ENOENT')),
    };
    expect(await findDefaultGateways('linux', broken)).toEqual([]);
    expect(await findDefaultGateways('win32', broken)).toEqual([]);
  });
});
