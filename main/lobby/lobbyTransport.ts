import type { EndpointOptions } from '../net/index';
import { GAMES } from '../../shared/games/registry';
import { roomSerializer } from '../net/codec/index';

/** Largest lobby message either side accepts on a native link: a full room's welcome is under 100 kB. */
export const LOBBY_MAX_MESSAGE_BYTES = 256 * 1024;

/**
 * Transport options for a room's host or guest: native links negotiate messages of at most
 * {@link LOBBY_MAX_MESSAGE_BYTES} (not the transport's 4 MiB) with little reassembly room, so a hostile peer
 * cannot make us buffer megabytes before a schema even sees them, and bodies in the room codec (the game's
 * per-tick messages schema-encoded) when both ends are LAN Party apps of this codec. Explicit native options win.
 */
export function lobbyTransportOptions(transport: Omit<EndpointOptions, 'drive'> = {}): Omit<EndpointOptions, 'drive'> {
  if (transport.native === false) return transport;
  return {
    ...transport,
    native: {
      maxMessageSize: LOBBY_MAX_MESSAGE_BYTES,
      reassemblyBytes: 2 * LOBBY_MAX_MESSAGE_BYTES,
      serializer: roomSerializer(GAMES.list()),
      ...transport.native,
    },
  };
}

/** Whether a room's host or guest with these options offers the native path (a v1 link then means it was lost). */
export function offersNative(options: { readonly transport?: Omit<EndpointOptions, 'drive'> }): boolean {
  return lobbyTransportOptions(options.transport).native !== false;
}
