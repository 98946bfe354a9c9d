import { describe, expect, it } from 'vitest';
import { iceServersFor, stunEndpointsForSettings, turnUrlEndpoint } from '../../../../main/reach/internet/iceServers';
import type { InternetSettings } from '../../../../shared/ipc/schemas/internetSettings';

const grant = {
  urls: ['turns:203.0.113.10:5349', 'turn:203.0.113.10:3478'],
  username: '1:x',
  password: 'p',
  expiresAt: 1,
};
const shared: InternetSettings = {
  rendezvousUrl: 'ws://203.0.113.20:8080/rendezvous/v1',
  turn: { mode: 'shared-secret' },
};

describe('ICE servers for an internet room', () => {
  it('reads host:port of UDP turn: URLs only', () => {
    expect(turnUrlEndpoint('turn:203.0.113.10:3478')).toEqual({ host: '203.0.113.10', port: 3478 });
    expect(turnUrlEndpoint('turn:[2001:db8::1]:3478?transport=udp')).toEqual({ host: '2001:db8::1', port: 3478 });
    expect(turnUrlEndpoint('turn:relay.example:3478?transport=tcp')).toBeNull();
    expect(turnUrlEndpoint('turns:203.0.113.10:5349')).toBeNull();
    expect(turnUrlEndpoint('turn:203.0.113.10:70000')).toBeNull();
  });

  it('takes a static account from the settings, else the grant, else nothing', () => {
    const fixed: InternetSettings = {
      rendezvousUrl: null,
      turn: { mode: 'static', server: 'turn.example:3478', username: 'u', password: 'pw' },
    };
    expect(iceServersFor(fixed, grant)).toEqual({
      stun: { host: 'turn.example', port: 3478 },
      turn: { host: 'turn.example', port: 3478, username: 'u', password: 'pw' },
    });
    expect(iceServersFor(shared, grant).turn).toEqual({
      host: '203.0.113.10',
      port: 3478,
      username: '1:x',
      password: 'p',
    });
    expect(iceServersFor(shared, null)).toEqual({});
    expect(iceServersFor({ ...shared, turn: { mode: 'none' } }, grant)).toEqual({});
  });

  it('gives the NAT check the TURN server on its port and the one above, asking the rendezvous when it mints', async () => {
    const asked: string[] = [];
    const endpoints = await stunEndpointsForSettings(shared, async (url) => (asked.push(url), grant.urls));
    expect(asked).toEqual([shared.rendezvousUrl]);
    expect(endpoints).toEqual([
      { host: '203.0.113.10', port: 3478 },
      { host: '203.0.113.10', port: 3479 },
    ]);
    expect(await stunEndpointsForSettings(shared, () => Promise.reject(new Error('down')))).toEqual([]);
    expect(
      await stunEndpointsForSettings({ rendezvousUrl: null, turn: { mode: 'none' } }, async () => grant.urls),
    ).toEqual([]);
  });
});
