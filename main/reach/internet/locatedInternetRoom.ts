import type { RoomTarget } from '../roomReach';

/**
 * Where the lobby sees a room found by an internet code, rendezvous or direct alike: the code itself labels the view
 * (upper-cased, at most 40 characters), and the Client connects to port 1 of it, since the secured path is the socket.
 */
export function locatedInternetRoom(code: string): { readonly target: RoomTarget; readonly connectTo: RoomTarget } {
  const host = code.trim().toUpperCase().slice(0, 40);
  return { target: { host, port: 0 }, connectTo: { host, port: 1 } };
}

/** A socket asked of a located internet room the guest has left. */
export function roomLeftError(): Error {
  return new Error('the internet room was left');
}
