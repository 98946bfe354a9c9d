import type { PortMapFailure } from '../../portmap/portMapping';

/** What to do instead, said at the end of every sentence. */
const INSTEAD = 'add a rendezvous server in Settings → Internet rooms, or play over a VPN';

/**
 * Why an internet room could not open its router's door, in one sentence with what to do (a rendezvous, a VPN,
 * the router's settings); the view shows it as the room's error when no rendezvous is there to fall back on.
 */
export function portMapFailureText(failure: PortMapFailure): string {
  switch (failure.kind) {
    case 'no-router':
      return `Your router did not answer a port-mapping request (UPnP, NAT-PMP and PCP may be off): turn UPnP or NAT-PMP on in the router’s settings, ${INSTEAD}.`;
    case 'refused':
      return `Your router refused to open a port for the room: allow port mapping for this computer in the router’s settings, ${INSTEAD}.`;
    case 'private-external':
      return `Your router’s own internet address (${failure.externalAddress}) is private, so another router sits in front of it: open the port on that one (or set it to bridge mode), ${INSTEAD}.`;
    case 'cgnat':
      return `Your internet provider shares its address (${failure.externalAddress}) among customers (carrier-grade NAT), so no router can open a port for you: ${INSTEAD}.`;
    case 'double-nat':
      return `Your router reports ${failure.externalAddress} but the internet sees you as ${failure.stunAddress}, so a second router sits in front of it: open the port on that one (or set it to bridge mode), ${INSTEAD}.`;
  }
}
