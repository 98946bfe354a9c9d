import { describe, expect, it } from 'vitest';
import {
  chooseProtocol,
  externalAddressFailure,
  type ProbeState,
} from '../../../../main/reach/portmap/portMapDecisions';
import { localAddressTowards } from '../../../../main/reach/portmap/localAddressTowards';
import type { PortMapProtocol } from '../../../../main/reach/portmap/portMapping';

const probes = (natPmp: ProbeState, pcp: ProbeState, upnp: ProbeState) =>
  new Map<PortMapProtocol, ProbeState>([
    ['nat-pmp', natPmp],
    ['pcp', pcp],
    ['upnp', upnp],
  ]);

describe('choosing the protocol', () => {
  it('takes NAT-PMP at once when it answers first', () => {
    expect(chooseProtocol(probes('yes', 'pending', 'pending'), 10, 250)).toEqual({ use: 'nat-pmp' });
  });

  it('waits up to the preference window for a preferred protocol, then takes the best that answered', () => {
    expect(chooseProtocol(probes('pending', 'pending', 'yes'), 100, 250)).toBe('wait');
    expect(chooseProtocol(probes('pending', 'yes', 'yes'), 200, 250)).toBe('wait');
    expect(chooseProtocol(probes('pending', 'yes', 'yes'), 250, 250)).toEqual({ use: 'pcp' });
    expect(chooseProtocol(probes('pending', 'pending', 'yes'), 250, 250)).toEqual({ use: 'upnp' });
  });

  it('does not wait for protocols that said no', () => {
    expect(chooseProtocol(probes('no', 'no', 'yes'), 5, 250)).toEqual({ use: 'upnp' });
    expect(chooseProtocol(probes('no', 'yes', 'pending'), 5, 250)).toEqual({ use: 'pcp' });
  });

  it('says none only when every probe said no, and respects a forced protocol', () => {
    expect(chooseProtocol(probes('no', 'no', 'no'), 5, 250)).toBe('none');
    expect(chooseProtocol(probes('no', 'pending', 'no'), 5000, 250)).toBe('wait');
    expect(chooseProtocol(new Map([['upnp', 'yes']]), 0, 250)).toEqual({ use: 'upnp' });
  });
});

describe('judging the external address', () => {
  it('private, link-local, CGNAT, a second NAT, or usable', () => {
    for (const address of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.2', '169.254.3.4']) {
      expect(externalAddressFailure(address, undefined)).toEqual({
        kind: 'private-external',
        externalAddress: address,
      });
    }
    expect(externalAddressFailure('100.64.0.2', undefined)).toEqual({ kind: 'cgnat', externalAddress: '100.64.0.2' });
    expect(externalAddressFailure('100.127.255.1', '100.127.255.1')).toMatchObject({ kind: 'cgnat' });
    expect(externalAddressFailure('203.0.113.1', '198.51.100.7')).toEqual({
      kind: 'double-nat',
      externalAddress: '203.0.113.1',
      stunAddress: '198.51.100.7',
    });
    expect(externalAddressFailure('203.0.113.1', '203.0.113.1')).toBeUndefined();
    expect(externalAddressFailure('172.32.0.1', undefined)).toBeUndefined();
    expect(externalAddressFailure('100.128.0.1', undefined)).toBeUndefined();
  });
});

describe('local address towards the gateway', () => {
  it('the address on the gateway subnet, else the first external IPv4 address', () => {
    const interfaces = {
      lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', internal: true }],
      wlan0: [
        { address: 'fe80::1', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', internal: false },
        { address: '10.0.0.23', netmask: '255.255.255.0', family: 'IPv4', internal: false },
      ],
      eth0: [{ address: '192.168.77.2', netmask: '255.255.255.0', family: 4, internal: false }],
    };
    expect(localAddressTowards('192.168.77.1', interfaces)).toBe('192.168.77.2');
    expect(localAddressTowards('127.0.0.9', interfaces)).toBe('127.0.0.1');
    expect(localAddressTowards('172.20.0.1', interfaces)).toBe('10.0.0.23');
    expect(localAddressTowards('172.20.0.1', { lo: interfaces.lo })).toBeUndefined();
  });
});
