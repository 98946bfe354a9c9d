import type { InternetSettings } from '../../../shared/ipc/schemas/internetSettings';
import type { TurnGrant } from '../../../shared/rendezvous';
import type { StunServer, TurnServer } from '../../net/ice';

/** The STUN and TURN servers one ICE session uses. */
export interface IceServers {
  readonly stun?: StunServer;
  readonly turn?: TurnServer;
}

/** host:port of a `turn:host:port[?transport=…]` URL (UDP only: the TURN client here speaks UDP); null if malformed. */
export function turnUrlEndpoint(url: string): StunServer | null {
  const match = /^turn:(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})(\?transport=udp)?$/.exec(url);
  if (!match) return null;
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { host: match[1]!.replace(/^\[|\]$/g, ''), port } : null;
}

/**
 * The servers for an internet path from the settings and the rendezvous' TURN grant: a static TURN account
 * from the settings wins, else the grant's first UDP `turn:` URL with its minted credentials; the TURN server
 * answers STUN too. Without a grant (none minted, or past the caps) the first UDP relay the rendezvous' welcome named is the
 * STUN server, so the host's relay learns our public address. Empty when none names one (direct paths only).
 */
export function iceServersFor(
  settings: InternetSettings,
  grant: TurnGrant | null,
  relays: readonly string[] = [],
): IceServers {
  if (settings.turn.mode === 'static') {
    const at = settings.turn.server.lastIndexOf(':');
    const endpoint = {
      host: settings.turn.server.slice(0, at).replace(/^\[|\]$/g, ''),
      port: Number(settings.turn.server.slice(at + 1)),
    };
    return {
      stun: endpoint,
      turn: { ...endpoint, username: settings.turn.username, password: settings.turn.password },
    };
  }
  if (settings.turn.mode === 'shared-secret' && grant) {
    const endpoint = grant.urls.map(turnUrlEndpoint).find((e) => e !== null);
    if (endpoint) return { stun: endpoint, turn: { ...endpoint, username: grant.username, password: grant.password } };
  }
  if (settings.turn.mode === 'shared-secret') {
    const stun = relays.map(turnUrlEndpoint).find((e) => e !== null);
    if (stun) return { stun };
  }
  return {};
}

/**
 * The STUN endpoints the network check asks for the NAT type, and the port mapper for a second NAT: the configured
 * TURN server (which answers STUN), or the relay the rendezvous names in its welcome (`askRelays`); each on its port
 * and the alternate port above it. Empty when internet rooms are not set up, or the rendezvous does not answer (the
 * check then says it was skipped).
 */
export async function stunEndpointsForSettings(
  settings: InternetSettings,
  askRelays: (url: string) => Promise<readonly string[]>,
): Promise<{ host: string; port: number }[]> {
  let servers: IceServers = iceServersFor(settings, null);
  if (!servers.stun && settings.turn.mode === 'shared-secret' && settings.rendezvousUrl !== null) {
    servers = iceServersFor(settings, null, await askRelays(settings.rendezvousUrl).catch(() => []));
  }
  const stun = servers.stun;
  if (!stun || !/^\d{1,3}(\.\d{1,3}){3}$/.test(stun.host)) return stun ? [stun] : [];
  return stun.port < 65535 ? [stun, { host: stun.host, port: stun.port + 1 }] : [stun];
}
