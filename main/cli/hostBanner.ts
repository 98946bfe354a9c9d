import type { LanAddress } from '../reach/lan/lanAddresses';

/** What the start-up banner shows. */
export interface HostBannerInfo {
  roomName: string;
  code: string;
  /** The short LAN code, when guests on this machine's subnet can complete it. */
  shortCode?: string | null;
  port: number;
  maxPlayers: number;
  passwordProtected: boolean;
  bindAddress: string;
  /** This machine's LAN addresses (used when bound to every interface). */
  addresses: readonly Pick<LanAddress, 'interfaceName' | 'address'>[];
  /** null when discovery is off. */
  discovery: { port: number; announce: boolean } | null;
}

/**
 * The lines printed once the room is open. Bound to one address, that address is the only one players can
 * use, so the machine's other addresses are not listed. Pure.
 */
export function formatHostBanner(info: HostBannerInfo): string[] {
  const reachable: readonly Pick<LanAddress, 'interfaceName' | 'address'>[] =
    info.bindAddress === '0.0.0.0' ? info.addresses : [{ interfaceName: 'bound', address: info.bindAddress }];
  const addressLines =
    reachable.length === 0
      ? ['Addresses: none found (no network connection?)']
      : reachable.map(
          ({ interfaceName, address }, index) =>
            `${index === 0 ? 'Addresses: ' : '           '}${address}:${info.port} (${interfaceName})`,
        );
  const discovery = info.discovery
    ? `Discovery: answering LAN searches on UDP ${info.discovery.port}${info.discovery.announce ? ', announcing the room every 2 s' : ''}`
    : 'Discovery: off (players join with the room code or an address)';
  return [
    `LAN Party dedicated host: "${info.roomName}"`,
    `Room code: ${info.code}`,
    ...(info.shortCode ? [`Short code: ${info.shortCode} (players on this network)`] : []),
    ...addressLines,
    `Players:   up to ${info.maxPlayers}${info.passwordProtected ? ', password required' : ''}`,
    discovery,
    'Press Ctrl-C to close the room.',
  ];
}
