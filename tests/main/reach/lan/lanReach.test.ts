import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../../main/base/logger';
import { resolveNetworkOptions } from '../../../../main/base/networkOptions';
import type { NetworkInterfacesLike, ProbeResult } from '../../../../main/net/discovery';
import { createLanReach, OTHER_ROOM_SENTENCE } from '../../../../main/reach/lan/index';
import type { RoomTarget } from '../../../../main/reach/roomReach';
import { encode, encodeShortCode } from '../../../../shared/roomCode';

const v4 = (address: string, netmask: string, internal = false) => ({ address, netmask, family: 'IPv4', internal });
const twoLans: NetworkInterfacesLike = {
  lo: [v4('127.0.0.1', '255.0.0.0', true)],
  eth0: [v4('192.168.1.7', '255.255.255.0')],
  eth1: [v4('10.20.0.5', '255.255.255.0')],
};
const advert = { name: 'Ada’s room', port: 9000, playerCount: 1, protocolVersion: 1 };
const answered = (host: string, port: number): ProbeResult => ({
  kind: 'answered',
  host,
  advert: { ...advert, port },
  rttMs: 1,
  attempts: 1,
});
const silent = (host: string): ProbeResult => ({ kind: 'no-answer', host, attempts: 3, waitedMs: 300 });

function reach(probe: (host: string) => Promise<ProbeResult>, interfaces = twoLans) {
  const network = resolveNetworkOptions({ networkInterfaces: () => interfaces, discoveryPort: 45000 });
  const spy = vi.fn(probe);
  return { lan: createLanReach({ network, platform: 'linux', logger: silentLogger, probe: spy }), probe: spy };
}
const progress = { onProgress: () => undefined };

describe('the LAN reach', () => {
  it('explains a mistyped code without probing anything', async () => {
    const { lan, probe } = reach(async (host) => silent(host));
    await expect(lan.locate({ code: 'AB#CD-EFGHJ' }, progress)).rejects.toMatchObject({
      code: 'invalid-argument',
      message: "'#' at position 3 is not used in room codes.",
    });
    expect(probe).not.toHaveBeenCalled();
  });

  it('works a short code’s candidates out once: the first is shown, each is probed once, the answer wins', async () => {
    const { lan, probe } = reach(async (host) => (host === '10.20.0.20' ? answered(host, 9000) : silent(host)));
    const short = encodeShortCode('10.20.0.20', '255.255.255.0', 9000);
    if (!short.ok) throw new Error('no short code');
    const shown: RoomTarget[] = [];
    const locating = lan.locate({ code: short.code }, { onProgress: (p) => p.target && shown.push(p.target) });
    // The first candidate is shown before the probes answer.
    expect(shown).toEqual([{ host: '192.168.1.20', port: 9000 }]);
    const located = await locating;
    expect(located).toMatchObject({ target: { host: '10.20.0.20', port: 9000 }, advert: { port: 9000 } });
    expect(located.connectWithin).toBeUndefined();
    expect(probe.mock.calls.map(([host]) => host).sort()).toEqual(['10.20.0.20', '127.0.0.20', '192.168.1.20']);
  });

  it('gives a code whose computer answers as another room a short connect that fails in words', async () => {
    const { lan } = reach(async (host) => answered(host, 9001));
    const located = await lan.locate({ code: encode('192.168.1.20', 9000) }, progress);
    expect(located.advert).toBeUndefined();
    expect(located.connectWithin?.seconds).toBeLessThan(1);
    expect(located.connectWithin?.failure).toMatchObject({ code: 'not-found', message: OTHER_ROOM_SENTENCE });
    expect(located.connectWithin?.failure.detail).toContain('answered as the room on port 9001');
  });

  it('tries a code unconfirmed only when one LAN address fits, without a probe', async () => {
    const { lan, probe } = reach(async (host) => silent(host), { eth0: twoLans.eth0, lo: twoLans.lo });
    const short = encodeShortCode('192.168.1.20', '255.255.255.0', 9000);
    if (!short.ok) throw new Error('no short code');
    const located = await lan.locate({ code: short.code, confirm: false }, progress);
    expect(located.target).toEqual({ host: '192.168.1.20', port: 9000 });
    expect(probe).not.toHaveBeenCalled();
    const ambiguous = reach(async (host) => silent(host)).lan;
    await expect(ambiguous.locate({ code: short.code, confirm: false }, progress)).rejects.toThrow(
      /fits more than one of your networks/,
    );
  });

  it('opens a room with discovery on its port and the address the player picked, if still this machine’s', async () => {
    const { lan } = reach(async (host) => silent(host));
    const opening = await lan.open({ advertiseAddress: '10.20.0.5' });
    expect(opening).toMatchObject({ advertiseAddress: '10.20.0.5', discovery: { port: 45000 } });
    expect(opening.discovery?.instanceId).toMatch(/^[0-9a-f]{16}$/);
    expect(opening.openSocket).toBeUndefined();
    const remembered = await lan.open({ rememberedInterface: 'eth1' });
    expect(remembered.advertiseAddress).toBe('10.20.0.5');
    await expect(lan.open({ advertiseAddress: '10.9.9.9' })).rejects.toMatchObject({ code: 'invalid-argument' });
    expect(lan.addresses('eth1').preferred).toBe('10.20.0.5');
  });
});
