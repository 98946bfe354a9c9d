import type { LobbyView } from '../../../shared/ipc/schemas/lobby';
import { readInternetCode } from '../../../shared/rendezvous';

type Internet = NonNullable<LobbyView['internet']>;

const STATUS_NOTES: Readonly<Record<Internet['status'], string>> = {
  registered: 'Friends anywhere join with this code: directly when their network allows, else through the relay.',
  reconnecting:
    'The rendezvous server is out of reach; reconnecting. Players already here are not affected, but new friends cannot join with this code until it is back.',
  expired:
    'This internet code has expired: new friends can only join from this network. Open a new room for a fresh code.',
  closed: 'This internet code is closed.',
};

/** A direct room's note: its code leads straight to the port the host's router opened, no rendezvous. */
const DIRECT_NOTE = 'Friends anywhere join with this code, straight to the port your router opened for the room.';

/** A DHT room's note: its code finds the room on the public DHT, and the two ends punch through, no relay. */
const DHT_NOTE =
  'Friends anywhere join with this code: their app finds the room on the public DHT and connects straight through both routers (no relay).';

/** The note under a hosted room's code: where a direct or DHT room's code leads, or where a rendezvous room stands. */
export function internetCodeNote(internet: Pick<Internet, 'code' | 'status'>): string {
  const read = readInternetCode(internet.code);
  if (internet.status !== 'registered' || !read.ok) return STATUS_NOTES[internet.status];
  if (read.invite.kind === 'direct') return DIRECT_NOTE;
  if (read.invite.kind === 'dht') return DHT_NOTE;
  return STATUS_NOTES.registered;
}
