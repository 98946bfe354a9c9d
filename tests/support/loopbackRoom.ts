import { LobbyHost, type LobbyHostOptions } from '../../main/lobby/host/lobbyHost';
import { LobbyGuest, type LobbyJoinOptions } from '../../main/lobby/lobbyGuest';

/** Where a test registers what its afterEach closes, newest first. */
export type Cleanups = Array<() => unknown>;

/** A lobby host bound to 127.0.0.1 with discovery off unless `options` says otherwise; closed by `cleanups`. */
export async function loopbackHost(cleanups: Cleanups, options: Partial<LobbyHostOptions> = {}): Promise<LobbyHost> {
  const host = await LobbyHost.start({
    roomName: 'Friday LAN',
    playerName: 'Hana',
    colour: '#a3e048',
    bindAddress: '127.0.0.1',
    advertiseAddress: '127.0.0.1',
    discovery: false,
    ...options,
  });
  cleanups.push(() => host.close());
  return host;
}

/** A guest joining 127.0.0.1:`port` within 2 s; leaves through `cleanups`. */
export async function loopbackGuest(
  cleanups: Cleanups,
  port: number,
  name: string,
  extra: Partial<LobbyJoinOptions> = {},
): Promise<LobbyGuest> {
  const guest = await LobbyGuest.join({
    host: '127.0.0.1',
    port,
    playerName: name,
    colour: '#3ddc97',
    timeout: 2,
    ...extra,
  });
  cleanups.push(() => guest.leave());
  return guest;
}
