import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mappingRecordPath } from '../../../../main/reach/portmap/mappingRecord';
import {
  createRouterPortMapper,
  probeRouter,
  removeLeftoverMappings,
  type RouterPortMapperOptions,
} from '../../../../main/reach/portmap/routerPortMapper';
import type { PortMapping, PortMapResult } from '../../../../main/reach/portmap/portMapping';
import { startFakeRouter, type FakeRouter, type FakeRouterOptions } from '../../../support/fakeRouter';
import { loopbackInterfaces } from '../../../support/loopbackNetwork';
import { ManualScheduler } from '../../../support/manualScheduler';
import { startStunTestServer, stunSuccess } from '../../../support/stunTestServer';
import { waitFor } from '../../../support/waitFor';

// The client against a fake router on its own loopback address (tests/support/fakeRouter.ts): nothing leaves 127/8.
const ROUTER_ADDRESS = '127.77.0.1';
let dir: string;
let router: FakeRouter | undefined;
const open: PortMapping[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'portmap-'));
});

afterEach(async () => {
  for (const mapping of open.splice(0)) await mapping.close();
  await router?.close();
  router = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function fake(options: Partial<FakeRouterOptions> = {}): Promise<FakeRouter> {
  router = await startFakeRouter({
    address: ROUTER_ADDRESS,
    protocols: ['nat-pmp', 'pcp', 'upnp'],
    externalAddress: '203.0.113.1',
    ...options,
  });
  return router;
}

function options(fakeRouter: FakeRouter, extra: Partial<RouterPortMapperOptions> = {}): RouterPortMapperOptions {
  return {
    gateways: [fakeRouter.address],
    ssdpTargets: [],
    ports: fakeRouter.ports,
    networkInterfaces: loopbackInterfaces,
    recordFile: mappingRecordPath(dir),
    probeTimeoutMs: 1500,
    requestTimeoutMs: 1500,
    ...extra,
  };
}

function expectMapping(result: PortMapResult): PortMapping {
  if (!result.ok) throw new Error(`no mapping: ${JSON.stringify(result.failure)}`);
  open.push(result.mapping);
  return result.mapping;
}

const recorded = () => JSON.parse(readFileSync(mappingRecordPath(dir), 'utf8')).mappings as { externalPort: number }[];

describe('router port mapper', () => {
  it('prefers NAT-PMP when every protocol answers, takes the port the router assigns, records it 0600, and close() removes both', async () => {
    const r = await fake();
    const mapping = expectMapping(await createRouterPortMapper(options(r))({ internalPort: 40123 }));
    expect(mapping).toMatchObject({
      protocol: 'nat-pmp',
      externalAddress: '203.0.113.1',
      externalPort: 41123,
      internalPort: 40123,
    });
    expect([...r.mappings.keys()]).toEqual(['nat-pmp:41123']);
    expect(recorded()).toMatchObject([
      { protocol: 'nat-pmp', externalPort: 41123, internalPort: 40123, pid: process.pid },
    ]);
    expect(statSync(mappingRecordPath(dir)).mode & 0o777).toBe(0o600);
    await mapping.close();
    expect(r.mappings.size).toBe(0);
    expect(recorded()).toEqual([]);
  });

  it('PCP: maps with a nonce and deletes with the same nonce', async () => {
    const r = await fake();
    const mapping = expectMapping(
      await createRouterPortMapper(options(r, { protocols: ['pcp'] }))({ internalPort: 40200 }),
    );
    expect(mapping).toMatchObject({ protocol: 'pcp', externalAddress: '203.0.113.1', externalPort: 41200 });
    expect(r.mappings.get('pcp:41200')?.nonce).toMatch(/^[0-9a-f]{24}$/);
    await mapping.close();
    expect(r.log).toContain('pcp:delete');
    expect(r.mappings.size).toBe(0);
  });

  it('UPnP v1: AddAnyPortMapping is refused, AddPortMapping maps for our LAN address, DeletePortMapping removes it', async () => {
    const r = await fake();
    const mapping = expectMapping(
      await createRouterPortMapper(options(r, { protocols: ['upnp'] }))({ internalPort: 40300 }),
    );
    expect(mapping).toMatchObject({ protocol: 'upnp', externalAddress: '203.0.113.1', externalPort: 40300 });
    expect(r.log.filter((entry) => entry.startsWith('upnp:A'))).toEqual([
      'upnp:AddAnyPortMapping',
      'upnp:AddPortMapping',
    ]);
    expect(r.mappings.get('upnp:40300')).toMatchObject({ internalClient: '127.0.0.1', lifetimeSeconds: 3600 });
    await mapping.close();
    expect(r.mappings.size).toBe(0);
  });

  it('UPnP v2: takes the port AddAnyPortMapping reserves', async () => {
    const r = await fake({ addAny: true });
    const mapping = expectMapping(
      await createRouterPortMapper(options(r, { protocols: ['upnp'] }))({ internalPort: 40400 }),
    );
    expect(mapping.externalPort).toBe(41400);
    await mapping.close();
    expect(r.mappings.size).toBe(0);
  });

  it('falls to UPnP when only UPnP answers', async () => {
    const r = await fake({ protocols: ['upnp'] });
    const mapping = expectMapping(await createRouterPortMapper(options(r))({ internalPort: 40500 }));
    expect(mapping.protocol).toBe('upnp');
  });

  it("says 'no-router' when nothing answers within the probe window, and at once when mapping is off", async () => {
    const r = await fake({ protocols: [] });
    const started = Date.now();
    const result = await createRouterPortMapper(options(r, { probeTimeoutMs: 400 }))({ internalPort: 40600 });
    expect(result).toEqual({ ok: false, failure: { kind: 'no-router' } });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await createRouterPortMapper(options(r, { gateways: [] }))({ internalPort: 40600 })).toEqual({
      ok: false,
      failure: { kind: 'no-router' },
    });
    expect(r.log).toEqual([]);
  });

  it('a CGNAT or private external address is said, and the useless mapping removed', async () => {
    const r = await fake({ externalAddress: '100.64.0.2' });
    expect(await createRouterPortMapper(options(r))({ internalPort: 40700 })).toEqual({
      ok: false,
      failure: { kind: 'cgnat', externalAddress: '100.64.0.2' },
    });
    expect(r.mappings.size).toBe(0);
    await r.close();
    router = undefined;
    const second = await fake({ externalAddress: '192.168.1.20' });
    expect(await createRouterPortMapper(options(second))({ internalPort: 40701 })).toEqual({
      ok: false,
      failure: { kind: 'private-external', externalAddress: '192.168.1.20' },
    });
    expect(second.mappings.size).toBe(0);
  });

  it("a STUN server seeing another address means a second NAT: 'double-nat'; the same address maps", async () => {
    const r = await fake();
    const stun = await startStunTestServer((from, tx) => stunSuccess(tx, '198.51.100.7', from.port));
    try {
      const stunServer = async () => ({ host: '127.0.0.1', port: stun.port });
      expect(await createRouterPortMapper(options(r))({ internalPort: 40800, stunServer })).toEqual({
        ok: false,
        failure: { kind: 'double-nat', externalAddress: '203.0.113.1', stunAddress: '198.51.100.7' },
      });
      expect(r.mappings.size).toBe(0);
    } finally {
      await stun.close();
    }
    const same = await startStunTestServer((from, tx) => stunSuccess(tx, '203.0.113.1', from.port));
    try {
      const stunServer = async () => ({ host: '127.0.0.1', port: same.port });
      expectMapping(await createRouterPortMapper(options(r))({ internalPort: 40801, stunServer }));
    } finally {
      await same.close();
    }
  });

  it("a router's refusal is a typed 'refused' with its result code", async () => {
    // A second client's MAP for a port another nonce holds: the router answers NOT_AUTHORIZED (RFC 6887 §11.3).
    const pcp = await fake({ protocols: ['pcp'] });
    const first = expectMapping(
      await createRouterPortMapper(options(pcp, { recordFile: undefined }))({ internalPort: 40900 }),
    );
    const again = await createRouterPortMapper(options(pcp, { recordFile: undefined }))({ internalPort: 40900 });
    expect(again).toEqual({ ok: false, failure: { kind: 'refused', protocol: 'pcp', detail: 'NOT_AUTHORIZED (2)' } });
    await first.close();
  });

  it('renews at half the granted lease, keeping the port', async () => {
    const r = await fake({ protocols: ['nat-pmp'], grantSeconds: 120 });
    const scheduler = new ManualScheduler();
    const mapping = expectMapping(await createRouterPortMapper(options(r, { scheduler }))({ internalPort: 41000 }));
    let moves = 0;
    mapping.onMoved(() => (moves += 1));
    expect(r.log.filter((entry) => entry === 'nat-pmp:map')).toHaveLength(1);
    scheduler.advance(59_000);
    expect(r.log.filter((entry) => entry === 'nat-pmp:map')).toHaveLength(1);
    scheduler.advance(1_000);
    await waitFor(() => r.log.filter((entry) => entry === 'nat-pmp:map').length === 2, 5000, 'a renewal');
    expect(mapping.externalPort).toBe(42000);
    // The same port again: nothing for the room to follow.
    expect(moves).toBe(0);
  });

  it('the next start removes a mapping whose process is gone, and keeps one a live process holds', async () => {
    const r = await fake({ protocols: ['nat-pmp', 'upnp'] });
    const base = options(r);
    const upnp = expectMapping(await createRouterPortMapper({ ...base, protocols: ['upnp'] })({ internalPort: 41100 }));
    const natPmp = expectMapping(
      await createRouterPortMapper({ ...base, protocols: ['nat-pmp'] })({ internalPort: 41101 }),
    );
    expect(r.mappings.size).toBe(2);
    // As a crash leaves it: the record names a process that is gone (pid 999999 for the UPnP one), or still alive.
    const file = JSON.parse(readFileSync(mappingRecordPath(dir), 'utf8'));
    file.mappings = file.mappings.map((entry: { protocol: string }) => ({
      ...entry,
      pid: entry.protocol === 'upnp' ? 999_999 : 1,
    }));
    writeFileSync(mappingRecordPath(dir), JSON.stringify(file));
    const isProcessAlive = (pid: number) => pid === 1;
    expect(await removeLeftoverMappings({ ...base, isProcessAlive })).toBe(1);
    expect([...r.mappings.keys()]).toEqual(['nat-pmp:42101']);
    expect(recorded()).toMatchObject([{ protocol: 'nat-pmp' }]);
    open.splice(open.indexOf(upnp), 1);
    await natPmp.close();
  });

  it('a damaged record is ignored, not fatal', async () => {
    const r = await fake();
    writeFileSync(mappingRecordPath(dir), '{"version":1,"mappings":[{"protocol":"x"}]}');
    expect(await removeLeftoverMappings(options(r))).toBe(0);
    writeFileSync(mappingRecordPath(dir), 'not json');
    expect(await removeLeftoverMappings(options(r))).toBe(0);
    expect(r.log).toEqual([]);
  });

  it('probeRouter reports what the router offers and its external address', async () => {
    const r = await fake({ protocols: ['pcp', 'upnp'] });
    expect(await probeRouter(options(r, { probeTimeoutMs: 600 }))).toEqual({
      gateway: ROUTER_ADDRESS,
      offers: ['pcp', 'upnp'],
      externalAddress: '203.0.113.1',
    });
    expect(await probeRouter(options(r, { gateways: [] }))).toEqual({
      gateway: undefined,
      offers: [],
      externalAddress: undefined,
    });
  });
});
