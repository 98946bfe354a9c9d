import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { runNetworkCheck, type NetworkCheckOptions } from '../../../main/netcheck/runNetworkCheck';
import { checkPort, describeBindFailure } from '../../../main/netcheck/portCheck';
import { BindError } from '../../../main/net/errors';
import { DiscoveryPortRegistry, type NetworkInterfacesLike } from '../../../main/net/discovery';
import { silentLogger } from '../../../main/base/logger';
import { networkCheckReportSchema } from '../../../shared/netcheck/report';
import { startStunTestServer, stunSuccess } from '../../support/stunTestServer';

// Loopback only: ports bound on 127.0.0.1 or port 0, the self-test sends to 127.255.255.255 and nowhere else.
// The fake interfaces are only described and never sent to.
const interfaces: NetworkInterfacesLike = {
  lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', internal: true }],
  eth0: [{ address: '192.168.1.20', netmask: '255.255.255.0', family: 'IPv4', internal: false }],
};

const held: Socket[] = [];
afterEach(async () => {
  for (const socket of held.splice(0)) await new Promise<void>((resolve) => socket.close(() => resolve()));
});

/** Occupies a UDP port without address reuse, as a foreign program would. */
async function occupy(host: string): Promise<number> {
  const socket = createSocket('udp4');
  held.push(socket);
  await new Promise<void>((resolve) => socket.bind(0, host, resolve));
  return socket.address().port;
}

function check(options: Partial<NetworkCheckOptions> = {}) {
  return runNetworkCheck({
    platform: 'linux',
    networkInterfaces: () => interfaces,
    discoveryPort: 0,
    gamePort: 0,
    bindAddress: '127.0.0.1',
    execPath: '/opt/LAN Party/lan-party',
    now: () => new Date('2025-02-01T18:00:00Z'),
    selfTest: {
      targets: ['127.255.255.255'],
      timeoutMs: 300,
      registry: new DiscoveryPortRegistry(undefined, silentLogger),
    },
    ...options,
  });
}

describe('runNetworkCheck on loopback', () => {
  it('reports a healthy machine: ports bound, own search heard, subnets listed, Linux tips', async () => {
    const report = await check();
    expect(networkCheckReportSchema.parse(report)).toEqual(report);
    expect(report).toMatchObject({ version: 1, platform: 'linux', checkedAt: '2025-02-01T18:00:00.000Z', ok: true });
    expect(report.ports.map((p) => [p.role, p.ok, p.code])).toEqual([
      ['discovery', true, null],
      ['game', true, null],
    ]);
    expect(report.ports.every((p) => typeof p.boundPort === 'number' && p.boundPort > 0)).toBe(true);
    expect(report.selfDiscovery).toMatchObject({ status: 'heard', targets: ['127.255.255.255'], sendFailures: [] });
    expect(report.interfaces.map((row) => [row.name, row.broadcast])).toEqual([
      ['lo', null],
      ['eth0', '192.168.1.255'],
    ]);
    // Computed from the fake interfaces and reported, never sent to: the check's own search goes to 127.255.255.255.
    expect(report.broadcastTargets).toEqual(['192.168.1.255', '255.255.255.255']); // a value only, never sent
    expect(report.receiveBuffer.grantedBytes).toBeGreaterThan(0);
    expect(['ok', 'clamped']).toContain(report.receiveBuffer.status);
    // Tips name the fixed ports even though the test bound free ones.
    expect(report.advice.find((item) => item.id === 'linux-ufw')?.commands).toEqual([
      'sudo ufw allow 9998/udp',
      'sudo ufw allow 9000/udp',
    ]);
    expect(report.advice.some((item) => item.severity === 'problem')).toBe(false);
  });

  it('follows the injected platform for the advice', async () => {
    const report = await check({ platform: 'win32', selfTest: false });
    expect(report.advice.find((item) => item.id === 'windows-firewall')?.commands[0]).toContain(
      'program="/opt/LAN Party/lan-party" profile=private,domain',
    );
    expect(report.selfDiscovery.status).toBe('skipped');
  });

  it('reports its own search unheard when the responder refuses it', async () => {
    const report = await check({
      selfTest: {
        targets: ['127.255.255.255'],
        timeoutMs: 200,
        registry: new DiscoveryPortRegistry(undefined, silentLogger),
        acceptSource: () => false,
      },
    });
    expect(report.selfDiscovery.status).toBe('not-heard');
    expect(report.selfDiscovery.message).toMatch(/No answer .* within 200 ms/);
    expect(report.ok).toBe(false);
    expect(report.advice[0]).toMatchObject({ id: 'self-discovery', severity: 'problem' });
  });

  it('names a busy game port in words and flags it', async () => {
    const busy = await occupy('127.0.0.1');
    const report = await check({ gamePort: busy, selfTest: false });
    expect(report.ports[1]).toMatchObject({ role: 'game', port: busy, ok: false, code: 'EADDRINUSE', boundPort: null });
    expect(report.ports[1]?.message).toBe(
      `UDP port ${busy} (the game) is already in use by another program, or a LAN Party room is already open on it.`,
    );
    expect(report.ok).toBe(false);
    expect(report.advice[0]).toMatchObject({ id: 'port-game', severity: 'problem' });
  });

  it('a discovery port held without sharing fails both the bind and the self-test', async () => {
    const busy = await occupy('0.0.0.0');
    const report = await check({ discoveryPort: busy });
    expect(report.ports[0]).toMatchObject({ role: 'discovery', ok: false, code: 'EADDRINUSE' });
    expect(report.selfDiscovery).toMatchObject({ status: 'failed', port: null });
    expect(report.selfDiscovery.message).toMatch(
      new RegExp(`^Could not listen for discovery requests on UDP port ${busy}`),
    );
    expect(report.advice.map((item) => item.id).slice(0, 2)).toEqual(['port-discovery', 'self-discovery']);
    // The game port was still measured.
    expect(report.receiveBuffer.status).not.toBe('unknown');
  });

  it('reports a permission error from the socket layer, and an unknown buffer when nothing could bind', async () => {
    const report = await check({
      selfTest: false,
      openUdp: async ({ port, host }) => {
        throw new BindError(port ?? 0, host ?? '0.0.0.0', 'EACCES', 'permission denied');
      },
    });
    expect(report.ports.map((p) => p.code)).toEqual(['EACCES', 'EACCES']);
    expect(report.ports[0]?.message).toMatch(
      /^Not allowed to listen on UDP port 0 \(LAN discovery\): permission denied/,
    );
    expect(report.receiveBuffer.status).toBe('unknown');
  });
});

describe('checkPort', () => {
  it('binds the discovery port shareably, as the app does', async () => {
    const seen: Array<boolean | undefined> = [];
    const outcome = await checkPort('discovery', 0, '127.0.0.1', async (options) => {
      seen.push(options.reuseAddr);
      throw Object.assign(new Error('boom'), { code: 'EINVAL' });
    });
    expect(seen).toEqual([true]);
    expect(outcome.check.message).toBe('Could not listen on UDP port 0 (LAN discovery) (EINVAL).');
  });

  it('explains an address that is not on this machine', () => {
    expect(describeBindFailure('game', 9000, '10.99.99.99', 'EADDRNOTAVAIL')).toBe(
      'Cannot listen on UDP port 9000 (the game): 10.99.99.99 is not an address of this machine.',
    );
  });

  it('keeps the message of an error without a code', async () => {
    const outcome = await checkPort('game', 9000, '0.0.0.0', async () => {
      throw new Error('socket layer exploded');
    });
    expect(outcome.check).toMatchObject({ ok: false, code: null });
    expect(outcome.check.message).toBe('Could not listen on UDP port 9000 (the game). socket layer exploded');
  });
});

describe('runNetworkCheck: the NAT type', () => {
  it('skips it without servers, and reports what loopback STUN servers saw when given them', async () => {
    expect((await check()).nat.status).toBe('skipped');
    const stun = await startStunTestServer((_from, tx) => stunSuccess(tx, '203.0.113.1', 40000));
    try {
      const report = await check({ nat: { servers: [{ host: '127.0.0.1', port: stun.port }], timeoutMs: 300 } });
      expect(report.nat).toMatchObject({ status: 'mapped', mappings: [{ mapped: '203.0.113.1:40000' }] });
      expect(networkCheckReportSchema.safeParse(report).success).toBe(true);
    } finally {
      await stun.close();
    }
  });
});
