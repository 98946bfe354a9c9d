import type { LobbyView } from '../../../shared/ipc/schemas/lobby';

/** Why a room shows only its full code. */
export type ShortCodeMissing = NonNullable<LobbyView['shortCodeMissing']>;

/** Why there is no short code, in words, and what friends use instead. Pure. */
export function shortCodeMissingText(reason: ShortCodeMissing): string {
  switch (reason) {
    case 'vpn':
      return 'A VPN address (Tailscale, ZeroTier…): friends reach it over the VPN, not from their own network, so they need the full code.';
    case 'no-host-part':
      return 'This network has no room for a short code (a single-address link), so friends need the full code.';
    case 'too-large':
      return 'This network is too wide for a short code with this port, so friends need the full code. The default port would fit.';
    case 'not-on-interface':
    case 'invalid-address':
      return 'This address is on none of this computer’s networks, so friends need the full code.';
  }
}
