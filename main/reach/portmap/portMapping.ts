/**
 * The seam between an internet room and the home router that can open its door: a UDP mapping of one local port
 * on the router's public address (UPnP IGD, NAT-PMP or PCP, whichever answers first). The room's reach asks for
 * one when it opens and closes it with the room; tests pass a fake or a router in a lab namespace.
 */

/** A STUN server, as host (an address or a name) and port. */
export interface StunServer {
  readonly host: string;
  readonly port: number;
}

/** Which router protocol made a mapping. */
export type PortMapProtocol = 'nat-pmp' | 'pcp' | 'upnp';

/** Why a room got no usable public mapping, typed so the view words it and chooses what to say next. */
export type PortMapFailure =
  /** Nothing answered on any protocol within the probe window (no router support, or it is turned off). */
  | { readonly kind: 'no-router' }
  /** A router answered but refused the mapping (its result code, for the log). */
  | { readonly kind: 'refused'; readonly protocol: PortMapProtocol; readonly detail: string }
  /** The router's own external address is private: another router sits between it and the internet. */
  | { readonly kind: 'private-external'; readonly externalAddress: string }
  /** The router's external address is carrier-grade NAT (100.64.0.0/10): the provider shares it. */
  | { readonly kind: 'cgnat'; readonly externalAddress: string }
  /** A STUN server sees another public address than the router reports: a second NAT beyond it. */
  | { readonly kind: 'double-nat'; readonly externalAddress: string; readonly stunAddress: string };

/** A live mapping, renewed by its owner at half its lease until closed. */
export interface PortMapping {
  readonly protocol: PortMapProtocol;
  /** The router's public address and the port it assigned (not always the one asked for). */
  readonly externalAddress: string;
  readonly externalPort: number;
  /** The local UDP port the router forwards to. */
  readonly internalPort: number;
  /**
   * Calls `listener` when a renewal moved the mapping (the router assigned another external port, or its address
   * changed): what the room told its guests points at a dead port until it follows. Returns the unsubscribe.
   */
  onMoved(listener: () => void): () => void;
  /** Removes the mapping from the router (and from the record kept for a crash); resolves even if the router is gone. */
  close(): Promise<void>;
}

/** A mapping, or why there is none. */
export type PortMapResult =
  { readonly ok: true; readonly mapping: PortMapping } | { readonly ok: false; readonly failure: PortMapFailure };

/** What a room asks the mapper for. */
export interface MapPortRequest {
  /** The local UDP port to map. */
  readonly internalPort: number;
  /**
   * The STUN server the player configured (its TURN server, or the relay the rendezvous names), asked only once a
   * mapping is made: another public address than the router's means a second NAT. Absent or undefined: unchecked.
   */
  readonly stunServer?: () => Promise<StunServer | undefined>;
}

/** Asks the router for a UDP mapping of a local port; never rejects (a failure is a result). */
export type MapPort = (request: MapPortRequest) => Promise<PortMapResult>;
