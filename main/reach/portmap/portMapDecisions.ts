import { parseIpv4 } from '../../../shared/roomCode/ipv4';
import type { PortMapFailure, PortMapProtocol } from './portMapping';

/** The protocols in the order a mapping prefers them (Tailscale's: NAT-PMP is cheapest, UPnP the last resort). */
export const PROTOCOL_PREFERENCE: readonly PortMapProtocol[] = ['nat-pmp', 'pcp', 'upnp'];

/** What a probe has said so far. */
export type ProbeState = 'pending' | 'yes' | 'no';

/** The choice after some probes answered: a protocol, wait longer, or nothing answers. */
export type ProtocolChoice = { readonly use: PortMapProtocol } | 'wait' | 'none';

/**
 * Which protocol to map with, given the probes' states and the time since they started. Pure. A protocol that
 * answered is taken once every one preferred to it has said no, or once `preferWindowMs` has passed (so a slow
 * UPnP answer never waits on a silent NAT-PMP); before that a preferred one may still answer.
 */
export function chooseProtocol(
  probes: ReadonlyMap<PortMapProtocol, ProbeState>,
  elapsedMs: number,
  preferWindowMs: number,
): ProtocolChoice {
  const asked = PROTOCOL_PREFERENCE.filter((protocol) => probes.has(protocol));
  const best = asked.find((protocol) => probes.get(protocol) === 'yes');
  if (best === undefined) return asked.every((protocol) => probes.get(protocol) === 'no') ? 'none' : 'wait';
  if (elapsedMs >= preferWindowMs) return { use: best };
  const before = asked.slice(0, asked.indexOf(best));
  return before.every((protocol) => probes.get(protocol) === 'no') ? { use: best } : 'wait';
}

/**
 * Whether a router's external address is one the internet can reach us at. Pure. Private (RFC 1918) or link-local:
 * another router sits in front; 100.64.0.0/10: the provider's carrier-grade NAT; a STUN server that sees another
 * address: a second NAT beyond the router. Undefined: usable.
 */
export function externalAddressFailure(
  externalAddress: string,
  stunAddress: string | undefined,
): PortMapFailure | undefined {
  const value = parseIpv4(externalAddress);
  if (value !== undefined) {
    const a = value >>> 24;
    const b = (value >>> 16) & 0xff;
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)) {
      return { kind: 'private-external', externalAddress };
    }
    if (a === 100 && b >= 64 && b <= 127) return { kind: 'cgnat', externalAddress };
  }
  if (stunAddress !== undefined && stunAddress !== externalAddress) {
    return { kind: 'double-nat', externalAddress, stunAddress };
  }
  return undefined;
}
