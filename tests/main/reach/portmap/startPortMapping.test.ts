import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mappingRecordPath } from '../../../../main/reach/portmap/mappingRecord';
import { createRouterPortMapper, type RouterPortMapperOptions } from '../../../../main/reach/portmap/routerPortMapper';
import { startPortMapping } from '../../../../main/reach/portmap/startPortMapping';
import { startFakeRouter, type FakeRouter } from '../../../support/fakeRouter';
import { loopbackInterfaces } from '../../../support/loopbackNetwork';

// The composition's port mapping against a fake router on its own loopback address: nothing leaves 127/8.
let dir: string | undefined;
let router: FakeRouter | undefined;
afterEach(async () => {
  await router?.close();
  router = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('startPortMapping', () => {
  it('is off (no mapper at all) when the gateways are []', () => {
    expect(startPortMapping({ gateways: [] })).toBeUndefined();
  });

  it("clears a crashed run's mapping first; a room asking meanwhile waits, then maps", async () => {
    dir = mkdtempSync(join(tmpdir(), 'portmap-start-'));
    router = await startFakeRouter({ address: '127.77.0.2', protocols: ['nat-pmp'], externalAddress: '203.0.113.1' });
    const options: RouterPortMapperOptions = {
      gateways: [router.address],
      ssdpTargets: [],
      ports: router.ports,
      networkInterfaces: loopbackInterfaces,
      // A data folder that does not exist yet (the headless host's, on a fresh machine): made, 0700.
      recordFile: mappingRecordPath(join(dir, 'fresh', 'lan-party')),
      probeTimeoutMs: 1500,
      requestTimeoutMs: 1500,
    };
    // As a crash leaves it: a live mapping, recorded under a process that is gone.
    const crashed = await createRouterPortMapper(options)({ internalPort: 41200 });
    if (!crashed.ok) throw new Error(JSON.stringify(crashed.failure));
    expect(router.mappings.size).toBe(1);
    expect(statSync(join(dir, 'fresh', 'lan-party')).mode & 0o777).toBe(0o700);
    const file = JSON.parse(readFileSync(options.recordFile!, 'utf8'));
    file.mappings = file.mappings.map((entry: object) => ({ ...entry, pid: 999_999 }));
    writeFileSync(options.recordFile!, JSON.stringify(file));
    router.log.splice(0);

    const mapPort = startPortMapping({ ...options, isProcessAlive: () => false });
    const result = await mapPort!({ internalPort: 41201 });
    if (!result.ok) throw new Error(JSON.stringify(result.failure));
    // The leftover's delete went out before this run's probe and mapping.
    expect(router.log.indexOf('nat-pmp:delete')).toBeGreaterThanOrEqual(0);
    expect(router.log.indexOf('nat-pmp:delete')).toBeLessThan(router.log.indexOf('nat-pmp:map'));
    expect([...router.mappings.keys()]).toEqual([`nat-pmp:${result.mapping.externalPort}`]);
    await result.mapping.close();
    expect(router.mappings.size).toBe(0);
  });
});
