import { describe, expect, it } from 'vitest';
import { advertVerdict } from '../../../../main/lobby/joinFailure';
import { candidatesFor, findRoom, soleCandidate } from '../../../../main/reach/lan/findRoom';
import { chooseAdvertiseAddress, hostAddresses } from '../../../../main/reach/lan/hostAddresses';
import { isVpnInterface, lanAddresses } from '../../../../main/reach/lan/lanAddresses';
import { errnoIn, networkErrorSentence } from '../../../../main/base/networkErrorSentence';
import { roomCodesFor } from '../../../../main/reach/lan/roomCodes';
import type { NetworkInterfacesLike, ProbeResult } from '../../../../main/net/discovery';
import { IpcError } from '../../../../shared/ipc/errors';
import { LOBBY_PROTOCOL_VERSION } from '../../../../shared/lobby/lobbyState';
import { decodeShortCode, parseJoinCode } from '../../../../shared/roomCode';

const v4 = (address: string, netmask: string, internal = false) => ({ address, netmask, family: 'IPv4', internal });

/** A laptop on a home LAN, a second wired LAN, Tailscale and ZeroTier, plus loopback and an IPv6 address. */
const laptop: NetworkInterfacesLike = {
  lo: [v4('127.0.0.1', '255.0.0.0', true)],
  wlan0: [
    v4('192.168.1.7', '255.255.255.0'),
    { address: 'fe80::1', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', internal: false },
  ],
  eth1: [v4('10.20.0.5', '255.255.0.0')],
  tailscale0: [v4('100.101.102.103', '255.255.255.255')],
  ztks3abc: [v4('10.147.17.9', '255.255.255.0')],
};

async function failure(run: () => Promise<unknown>): Promise<IpcError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof IpcError) return error;
    throw error;
  }
  throw new Error('expected an IpcError');
}

const advert = { name: 'Ada’s room', port: 9000, playerCount: 2, protocolVersion: 1 };
const answered = (host: string, port = 9000): ProbeResult => ({
  kind: 'answered',
  host,
  advert: { ...advert, port },
  rttMs: 1.2,
  attempts: 1,
});
const silent = (host: string): ProbeResult => ({ kind: 'no-answer', host, attempts: 3, waitedMs: 300 });

describe('where a code leads', () => {
  it('completes a short code on every IPv4 subnet it fits, LAN ones before loopback', () => {
    const code = parseJoinCode(
      roomCodesFor('192.168.1.20', 9000, { eth0: [v4('192.168.1.20', '255.255.255.0')] }).shortCode!,
    );
    expect(candidatesFor(code, laptop)).toEqual([
      { host: '192.168.1.20', port: 9000, interfaceName: 'wlan0', internal: false },
      { host: '10.20.0.20', port: 9000, interfaceName: 'eth1', internal: false },
      { host: '10.147.17.20', port: 9000, interfaceName: 'ztks3abc', internal: false },
      { host: '127.0.0.20', port: 9000, interfaceName: 'lo', internal: true },
    ]);
    // A host part too big for a /24 fits only the /16 and loopback.
    const wide = parseJoinCode(roomCodesFor('10.20.3.4', 9000, { eth0: [v4('10.20.3.4', '255.255.0.0')] }).shortCode!);
    expect(candidatesFor(wide, laptop).map((c) => c.host)).toEqual(['10.20.3.4', '127.0.3.4']);
    expect(candidatesFor(parseJoinCode('00000-0000A'), laptop)).toEqual([
      { host: '0.0.0.0', port: 10, interfaceName: null, internal: false },
    ]);
  });

  it('joins only the candidate that answered, and reads its advert only when it is this room’s', async () => {
    const code = {
      kind: 'short' as const,
      ...decodeShortCode(roomCodesFor('10.20.0.20', 9000, { eth0: [v4('10.20.0.20', '255.255.0.0')] }).shortCode ?? ''),
    };
    const asked: string[] = [];
    const found = await findRoom(code, {
      interfaces: laptop,
      discoveryPort: 9998,
      probe: async (host) => {
        asked.push(host);
        return host === '10.20.0.20' ? answered(host) : silent(host);
      },
    });
    expect(asked.sort()).toEqual(['10.147.17.20', '10.20.0.20', '127.0.0.20', '192.168.1.20']);
    expect(found).toEqual({ target: { host: '10.20.0.20', port: 9000 }, advert: { ...advert } });
    // Another room on that machine answered its shared discovery port: the machine is there, its advert is not ours.
    const other = await findRoom(parseJoinCode(roomCodesFor('10.20.0.20', 9000, laptop).code), {
      interfaces: laptop,
      discoveryPort: 9998,
      probe: async (host) => answered(host, 9001),
    });
    expect(other).toEqual({
      target: { host: '10.20.0.20', port: 9000 },
      advert: undefined,
      otherRoom: { ...advert, port: 9001 },
    });
  });

  it('says “no room answered” (try anyway) for one silent address, with what was tried in the detail', async () => {
    const error = await failure(() =>
      findRoom(parseJoinCode(roomCodesFor('192.168.1.20', 9000, laptop).code), {
        interfaces: laptop,
        discoveryPort: 9998,
        probe: async (host) => silent(host),
      }),
    );
    expect(error.code).toBe('not-found');
    expect(error.message).toMatch(/^No room answered at 192\.168\.1\.20:9000\. .*try anyway\.$/);
    expect(error.detail).toBe('discovery query to 192.168.1.20:9998: no answer to 3 queries in 300 ms');
  });

  it('connects unconfirmed to a full code off this machine’s subnets (a VPN peer, a routed LAN) that stays silent', async () => {
    // The host's responder answers only its own subnets, so silence from a Tailscale peer proves nothing.
    const found = await findRoom(parseJoinCode(roomCodesFor('100.90.1.2', 9000, {}).code), {
      interfaces: laptop,
      discoveryPort: 9998,
      probe: async (host) => silent(host),
    });
    expect(found).toEqual({ target: { host: '100.90.1.2', port: 9000 }, advert: undefined });
  });

  it('turns an errno into a sentence when no query could leave, and names every network tried', async () => {
    const unreachable = await failure(() =>
      findRoom(parseJoinCode(roomCodesFor('192.168.1.20', 9000, laptop).code), {
        interfaces: laptop,
        discoveryPort: 9998,
        probe: async (host) => ({
          kind: 'send-failed',
          host,
          failure: { target: host, port: 9998, code: 'ENETUNREACH', message: 'send ENETUNREACH 192.168.1.20:9998' },
        }),
      }),
    );
    expect(unreachable).toMatchObject({ code: 'unavailable', message: networkErrorSentence('ENETUNREACH') });
    expect(unreachable.message).not.toContain('ENETUNREACH');
    expect(unreachable.detail).toContain('ENETUNREACH');
    const code = {
      kind: 'short' as const,
      ...decodeShortCode(
        roomCodesFor('192.168.1.20', 9000, { eth0: [v4('192.168.1.20', '255.255.255.0')] }).shortCode ?? '',
      ),
    };
    const nobody = await failure(() =>
      findRoom(code, { interfaces: laptop, discoveryPort: 9998, probe: async (host) => silent(host) }),
    );
    expect(nobody.code).toBe('unavailable');
    expect(nobody.message).toContain('(tried 192.168.1.20, 10.20.0.20, 10.147.17.20, 127.0.0.20)');
  });

  it('explains a short code that fits none of this computer’s networks', async () => {
    const code = { kind: 'short' as const, hostPart: 5000, port: 9000, explicitPort: false };
    const onlyVpn: NetworkInterfacesLike = { tailscale0: [v4('100.101.102.103', '255.255.255.255')] };
    expect(candidatesFor(code, onlyVpn)).toEqual([]);
    const error = await failure(() =>
      findRoom(code, { interfaces: onlyVpn, discoveryPort: 9998, probe: async (host) => silent(host) }),
    );
    expect(error.message).toContain('Ask the host for the full code');
    expect(error.detail).toContain('tailscale0 100.101.102.103/255.255.255.255');
  });

  it('tries one address unconfirmed only when there is just one LAN candidate', () => {
    const single = candidatesFor(
      { kind: 'short', hostPart: 20, port: 9000, explicitPort: false },
      {
        lo: [v4('127.0.0.1', '255.0.0.0', true)],
        eth0: [v4('192.168.1.7', '255.255.255.0')],
      },
    );
    expect(soleCandidate(single)?.host).toBe('192.168.1.20');
    expect(
      soleCandidate(candidatesFor({ kind: 'short', hostPart: 20, port: 9000, explicitPort: false }, laptop)),
    ).toBeUndefined();
  });
});

describe('what a room’s reply already says', () => {
  const ours = { appVersion: '1.0.0', passwordGiven: false };
  it('refuses a full room, a round in progress, another version, a password not typed', () => {
    expect(advertVerdict({ ...advert, capacity: 2 }, ours)).toMatchObject({ code: 'full', detail: '2 of 2 players' });
    expect(advertVerdict({ ...advert, inRound: true }, ours)).toMatchObject({ code: 'in-game' });
    const version = advertVerdict({ ...advert, lobbyProtocol: LOBBY_PROTOCOL_VERSION + 1, appVersion: '2.0.0' }, ours);
    expect(version).toMatchObject({ code: 'version-mismatch' });
    expect(version?.message).toContain('2.0.0');
    expect(advertVerdict({ ...advert, passwordProtected: true }, ours)).toMatchObject({ code: 'wrong-password' });
  });

  it('lets through an open room, a password the player typed, and the reference’s bare reply', () => {
    expect(
      advertVerdict({ ...advert, capacity: 8, lobbyProtocol: LOBBY_PROTOCOL_VERSION, inRound: false }, ours),
    ).toBeUndefined();
    expect(advertVerdict({ ...advert, passwordProtected: true }, { ...ours, passwordGiven: true })).toBeUndefined();
    expect(advertVerdict({ name: 'python', port: 9000, playerCount: 99 }, ours)).toBeUndefined();
  });
});

describe('which address a room puts in its code', () => {
  it('lists addresses by interface, VPN overlays last and labelled, with whether a short code works', () => {
    expect(hostAddresses(laptop, undefined, null)).toEqual({
      addresses: [
        {
          interfaceName: 'wlan0',
          address: '192.168.1.7',
          netmask: '255.255.255.0',
          vpn: false,
          shortCodeMissing: null,
        },
        { interfaceName: 'eth1', address: '10.20.0.5', netmask: '255.255.0.0', vpn: false, shortCodeMissing: null },
        {
          interfaceName: 'tailscale0',
          address: '100.101.102.103',
          netmask: '255.255.255.255',
          vpn: true,
          shortCodeMissing: 'vpn',
        },
        {
          interfaceName: 'ztks3abc',
          address: '10.147.17.9',
          netmask: '255.255.255.0',
          vpn: true,
          shortCodeMissing: 'vpn',
        },
      ],
      preferred: '192.168.1.7',
    });
    expect(hostAddresses(laptop, undefined, 'ztks3abc').preferred).toBe('10.147.17.9');
    // A remembered interface that is gone falls back to the best LAN address.
    expect(hostAddresses(laptop, undefined, 'wg0').preferred).toBe('192.168.1.7');
  });

  it('recognises VPN interfaces by name on each OS, and Tailscale’s range', () => {
    for (const name of [
      'tun0',
      'tailscale0',
      'utun3',
      'wg0',
      'zt7nnig26',
      'ZeroTier One [8056c2e21c000001]',
      'Tailscale',
      'OpenVPN TAP-Windows6',
    ]) {
      expect(isVpnInterface(name, '10.0.0.1'), name).toBe(true);
    }
    expect(isVpnInterface('en0', '100.64.0.1')).toBe(true);
    for (const name of ['eth0', 'wlan0', 'en0', 'Wi-Fi', 'Ethernet 2'])
      expect(isVpnInterface(name, '192.168.1.2'), name).toBe(false);
    expect(lanAddresses(laptop).map((a) => a.interfaceName)).toEqual(['wlan0', 'eth1', 'tailscale0', 'ztks3abc']);
  });

  it('uses the address asked for only when it is still this machine’s; else the remembered interface', () => {
    expect(chooseAdvertiseAddress('10.147.17.9', null, laptop, undefined)).toBe('10.147.17.9');
    expect(chooseAdvertiseAddress(undefined, 'eth1', laptop, undefined)).toBe('10.20.0.5');
    expect(chooseAdvertiseAddress(undefined, 'gone0', laptop, undefined)).toBeUndefined();
    expect(() => chooseAdvertiseAddress('192.168.9.9', null, laptop, undefined)).toThrow(
      /not an address of this computer/,
    );
  });

  it('gives a VPN or /32 address only the full code, and says why', () => {
    expect(roomCodesFor('100.101.102.103', 9000, laptop)).toMatchObject({ shortCode: null, shortCodeMissing: 'vpn' });
    expect(roomCodesFor('192.168.1.7', 9000, laptop)).toMatchObject({ shortCodeMissing: null });
    expect(roomCodesFor('10.20.200.5', 9100, { eth1: [v4('10.20.200.5', '255.255.0.0')] })).toMatchObject({
      shortCode: null,
      shortCodeMissing: 'too-large',
    });
    expect(roomCodesFor('172.16.0.9', 9000, laptop)).toMatchObject({
      shortCode: null,
      shortCodeMissing: 'not-on-interface',
    });
  });
});

describe('errno sentences', () => {
  it('turns each errno a join meets into words, and finds it in a transport reason', () => {
    for (const code of ['ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'ECONNREFUSED', 'EACCES']) {
      const sentence = networkErrorSentence(code, 'linux');
      expect(sentence, code).toMatch(/^[A-Z].*\.$/);
      expect(sentence).not.toMatch(/E[A-Z]{4,}/);
    }
    expect(networkErrorSentence('EHOSTUNREACH', 'darwin')).toContain('Local Network');
    expect(networkErrorSentence('EWEIRD', 'linux')).toBe('The connection to that address failed.');
    expect(errnoIn('could not connect: send ENETUNREACH 10.0.0.1:9000')).toBe('ENETUNREACH');
    expect(errnoIn('timed out')).toBeUndefined();
  });
});
