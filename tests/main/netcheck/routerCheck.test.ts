import { afterEach, describe, expect, it } from 'vitest';
import { checkRouter, describeRouter } from '../../../main/netcheck/routerCheck';
import { startFakeRouter, type FakeRouter } from '../../support/fakeRouter';
import { loopbackInterfaces } from '../../support/loopbackNetwork';

// The network check's router finding, against a fake router on its own loopback address.
let router: FakeRouter | undefined;
afterEach(async () => {
  await router?.close();
  router = undefined;
});

describe('router check', () => {
  it('reports the protocols a router answers and its external address, without mapping anything', async () => {
    router = await startFakeRouter({
      address: '127.78.0.1',
      protocols: ['nat-pmp', 'upnp'],
      externalAddress: '203.0.113.1',
    });
    const report = await checkRouter({
      gateways: [router.address],
      ssdpTargets: [],
      ports: router.ports,
      networkInterfaces: loopbackInterfaces,
      probeTimeoutMs: 600,
    });
    expect(report).toMatchObject({
      status: 'offered',
      gateway: '127.78.0.1',
      offers: ['nat-pmp', 'upnp'],
      externalAddress: '203.0.113.1',
      title: 'The router offers NAT-PMP, UPnP IGD',
    });
    expect(router.mappings.size).toBe(0);
  });

  it("says 'none' when nothing answers and 'skipped' when port mapping is off (asking nobody)", async () => {
    router = await startFakeRouter({ address: '127.78.0.1', protocols: [], externalAddress: '203.0.113.1' });
    const options = {
      ssdpTargets: [],
      ports: router.ports,
      networkInterfaces: loopbackInterfaces,
      probeTimeoutMs: 300,
    };
    expect(await checkRouter({ ...options, gateways: [router.address] })).toMatchObject({
      status: 'none',
      gateway: '127.78.0.1',
      offers: [],
      title: 'The router opens no ports on request',
    });
    expect(await checkRouter({ ...options, gateways: [] })).toMatchObject({ status: 'skipped', gateway: null });
    expect(router.log).toEqual([]);
  });

  it('says in one sentence when the external address is private or CGNAT, and when no gateway was found', () => {
    const cgnat = describeRouter({ gateway: '192.168.1.1', offers: ['upnp'], externalAddress: '100.64.0.2' });
    expect(cgnat.title).toBe('The router maps ports, but not to the internet');
    expect(cgnat.message).toContain('carrier-grade NAT');
    const privateAddress = describeRouter({ gateway: '192.168.1.1', offers: ['pcp'], externalAddress: '10.0.0.2' });
    expect(privateAddress.message).toContain('another router sits in front of it');
    expect(describeRouter({ gateway: undefined, offers: [], externalAddress: undefined }).message).toBe(
      'No default gateway was found, so no router was asked.',
    );
  });
});
