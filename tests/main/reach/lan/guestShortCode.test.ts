import { describe, expect, it } from 'vitest';
import { lobbyViewOf } from '../../../../main/lobby/lobbyView';
import { guestShortCode, roomCodesFor } from '../../../../main/reach/lan/roomCodes';
import { createLobbyState } from '../../../../shared/lobby/lobbyState';

const v4 = (address: string, netmask: string, internal = false) => ({ address, netmask, family: 'IPv4', internal });

describe('the short code a guest shows', () => {
  const host = { eth0: [v4('192.168.1.20', '255.255.255.0')] };

  it('is the host’s own short code when the guest is on the host’s subnet', () => {
    const guest = { lo: [v4('127.0.0.1', '255.0.0.0', true)], wlan0: [v4('192.168.1.77', '255.255.255.0')] };
    for (const port of [22856, 9000]) {
      const shown = roomCodesFor('192.168.1.20', port, host).shortCode;
      expect(shown).not.toBeNull();
      expect(guestShortCode('192.168.1.20', port, guest)).toBe(shown);
    }
  });

  it('is null for a host on no subnet of the guest, on a VPN overlay, or not an IPv4 address', () => {
    const guest = { wlan0: [v4('10.0.0.5', '255.255.255.0')], tailscale0: [v4('100.101.1.2', '255.192.0.0')] };
    expect(guestShortCode('192.168.1.20', 22856, guest)).toBeNull();
    expect(guestShortCode('100.101.7.9', 22856, guest)).toBeNull();
    expect(guestShortCode('party-pc', 22856, guest)).toBeNull();
  });

  it('reaches the guest’s view, and an internet room shows only its NET- code', () => {
    const state = createLobbyState(
      { roomName: 'r', capacity: 4, passwordProtected: false },
      { name: 'a', colour: '#fff' },
    );
    const target = { host: '192.168.1.20', port: 22856 };
    const lan = lobbyViewOf({ kind: 'guest', target, you: 1, state, shortCode: 'ABCDE' });
    expect(lan).toMatchObject({ role: 'guest', shortCode: 'ABCDE' });
    const internet = lobbyViewOf({ kind: 'guest', target, you: 1, state, internetCode: 'NET-X', shortCode: 'ABCDE' });
    expect(internet.shortCode).toBeNull();
    expect(lobbyViewOf({ kind: 'guest', target, you: 1, state }).shortCode).toBeNull();
  });
});
