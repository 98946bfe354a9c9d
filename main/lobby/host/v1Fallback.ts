import type { WireProtocol } from '../../net/index';
import { PlayerPath } from '../../../shared/lobby/lobbyState';

/**
 * Whether a guest landed on gale.net v1 although both ends speak the native path: its hello says it offered
 * native, this host offers it, the guest is on the LAN (an internet path is sealed end to end whatever the wire
 * format under it) and its connection is v1 all the same, so the offer was lost or stripped on the way. A
 * gale.net peer that never offered native is not one: v1 is all it speaks.
 */
export function fellBackToV1(
  hostOffersNative: boolean,
  hello: { readonly native?: boolean | undefined },
  protocol: WireProtocol,
  path: PlayerPath,
): boolean {
  return hostOffersNative && hello.native === true && protocol === 'v1' && path === PlayerPath.LAN;
}

/** The host's log line for such a guest. */
export function v1FallbackWarning(name: string, endpoint: string): string {
  return (
    `${name} (${endpoint}) offered the native path but is connected over gale.net v1, without message ` +
    'authentication: something on the network may have stripped the offer'
  );
}
