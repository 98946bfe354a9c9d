import { internetRoomsEnabled, type InternetSettings } from '../../../shared/ipc/schemas/internetSettings';

/**
 * How the host form can take friends over the internet: through the router's mapped port (this backend maps
 * ports), through the rendezvous set in Settings, on the public DHT (main's last door, when no rendezvous is set),
 * the router first and one of those if it will not map, or not at all.
 */
export type InternetRoomsOffer = 'off' | 'router' | 'rendezvous' | 'router-or-rendezvous' | 'dht' | 'router-or-dht';

/**
 * What the host form offers, from the saved internet settings and whether main maps ports and meets guests on the
 * DHT (`app.getInfo`). A rendezvous, when set, comes before the DHT (its relay reaches every pair of networks).
 */
export function internetRoomsOffer(
  settings: InternetSettings | undefined,
  portMapping: boolean,
  dht = false,
): InternetRoomsOffer {
  const rendezvous = internetRoomsEnabled(settings);
  if (rendezvous) return portMapping ? 'router-or-rendezvous' : 'rendezvous';
  if (dht) return portMapping ? 'router-or-dht' : 'dht';
  return portMapping ? 'router' : 'off';
}

/** The host form's sentence under "Who can join" when friends over the internet is chosen, or why it cannot be. */
export function internetRoomsHint(offer: InternetRoomsOffer): string {
  switch (offer) {
    case 'off':
      return 'Internet rooms are off: add a rendezvous server in your profile’s Internet rooms settings first.';
    case 'router':
      return 'The room gets a NET- code too: your router opens a port for it, and friends anywhere join with the code straight to you, encrypted end to end.';
    case 'rendezvous':
      return 'The room gets a NET- code too: friends anywhere join with it, directly or through the relay, encrypted end to end.';
    case 'router-or-rendezvous':
      return 'The room gets a NET- code too: your router opens a port for it (or, if it will not, the rendezvous finds a path), encrypted end to end.';
    case 'dht':
      return 'The room gets a NET- code too: friends find it on the public DHT and connect straight through both routers, encrypted end to end (no relay: a few pairs of networks cannot meet this way).';
    case 'router-or-dht':
      return 'The room gets a NET- code too: your router opens a port for it (or, if it will not, friends find it on the public DHT and connect straight through both routers), encrypted end to end.';
  }
}
