import { describe, expect, it } from 'vitest';
import { networkOptionsFromFlags } from '../../../main/devServer/devWebNetworkArgs';

describe('dev:web network flags', () => {
  it('changes nothing without flags', () => {
    expect(networkOptionsFromFlags({})).toEqual({});
  });

  it('--loopback keeps everything on this machine, router port mapping and the DHT off', () => {
    expect(networkOptionsFromFlags({ loopback: true })).toEqual({
      bindAddress: '127.0.0.1',
      advertiseAddress: '127.0.0.1',
      broadcastTargets: ['127.255.255.255'],
      selfTestTargets: ['127.255.255.255', '127.0.0.1'],
      routerGateways: [],
      ssdpTargets: [],
      dhtBootstrap: [],
    });
  });

  it('reads ports, addresses and targets, later flags winning over --loopback', () => {
    expect(
      networkOptionsFromFlags({
        loopback: true,
        'discovery-port': '41000',
        'game-port': '0',
        bind: '127.0.0.2',
        targets: '127.255.255.255, 127.0.0.1',
        'ice-host': '192.168.1.2,',
      }),
    ).toMatchObject({
      discoveryPort: 41000,
      defaultGamePort: 0,
      bindAddress: '127.0.0.2',
      broadcastTargets: ['127.255.255.255', '127.0.0.1'],
      iceHostAddresses: ['192.168.1.2'],
    });
  });

  it('refuses bad ports, empty targets and an empty ICE host list', () => {
    expect(() => networkOptionsFromFlags({ 'discovery-port': '0' })).toThrow(/--discovery-port/);
    expect(() => networkOptionsFromFlags({ 'game-port': '70000' })).toThrow(/--game-port/);
    expect(() => networkOptionsFromFlags({ 'game-port': 'x' })).toThrow(/--game-port/);
    expect(() => networkOptionsFromFlags({ targets: ' , ' })).toThrow(/--targets/);
    expect(() => networkOptionsFromFlags({ 'ice-host': '' })).toThrow(/--ice-host/);
  });
});
