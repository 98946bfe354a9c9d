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
 * answers STUN too. Empty when neither names one (direct paths only, between friendly NATs).
 */
export function iceServersFor(settings: InternetSettings, grant: TurnGrant | null): IceServers {
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
  return {};
}
