import { internetRoomsEnabled, type InternetSettings } from '../../../shared/ipc/schemas/internetSettings';

/**
 * How the host form can take friends over the internet: through the router's mapped port (this backend maps
 * ports), through the rendezvous set in Settings, both (the router first, the rendezvous if it will not map), or
 * not at all.
 */
export type InternetRoomsOffer = 'off' | 'router' | 'rendezvous' | 'router-or-rendezvous';

/** What the host form offers, from the saved internet settings and whether main maps ports (`app.getInfo`). */
export function internetRoomsOffer(settings: InternetSettings | undefined, portMapping: boolean): InternetRoomsOffer {
  const rendezvous = internetRoomsEnabled(settings);
  if (portMapping) return rendezvous ? 'router-or-rendezvous' : 'router';
  return rendezvous ? 'rendezvous' : 'off';
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
  }
}
