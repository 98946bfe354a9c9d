import type { NetworkInterfacesLike, NetworkOptions } from '../../main/base/networkOptions';

export { freeUdpPort } from './freeUdpPort';

/** A machine with only loopback: rooms show no LAN address, searches reach no real network. */
export const loopbackInterfaces = (): NetworkInterfacesLike => ({
  lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', internal: true }],
});

/**
 * Network options that keep a backend on loopback: rooms bound to and advertised as 127.0.0.1 on a free
 * port, discovery on `discoveryPort` (share it between the backends of one test), searches and
 * announcements to 127.255.255.255 only, router port mapping off (no gateway, no SSDP beyond it), no DHT node
 * (nothing reaches the public bootstrap nodes), and short
 * intervals so tests are quick.
 */
export function loopbackNetwork(discoveryPort: number, extra: Partial<NetworkOptions> = {}): Partial<NetworkOptions> {
  return {
    discoveryPort,
    bindAddress: '127.0.0.1',
    advertiseAddress: '127.0.0.1',
    broadcastTargets: ['127.255.255.255'],
    selfTestTargets: ['127.255.255.255', '127.0.0.1'],
    announceIntervalMs: 300,
    browseIntervalMs: 250,
    defaultGamePort: 0,
    joinTimeoutSec: 2,
    networkInterfaces: loopbackInterfaces,
    routerGateways: [],
    ssdpTargets: [],
    dhtBootstrap: [],
    ...extra,
  };
}
