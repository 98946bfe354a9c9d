import type { Scheduler } from '../../../base/scheduler';
import type { OpenDatagramSocket } from '../../../net/index';
import type { PortMapProtocol } from '../portMapping';
import type { UpnpHttp } from './upnpHttp';

/**
 * What it takes to remove a mapping later, from this run or the next (the record a crash leaves): plain data,
 * written to the mapping record as JSON.
 */
export interface MappingHandle {
  readonly protocol: PortMapProtocol;
  readonly gateway: string;
  /** The local address the router forwards to (PCP names it in every request). */
  readonly clientAddress: string;
  readonly internalPort: number;
  readonly externalPort: number;
  /** PCP: the mapping nonce (hex), which a renewal or deletion must repeat (RFC 6887 §11.1). */
  readonly nonce?: string;
  /** UPnP: where the router's WAN connection service takes actions, and its type. */
  readonly controlUrl?: string;
  readonly serviceType?: string;
}

/** A mapping one protocol made: the router's public address, the port it chose, the lease it granted. */
export interface RouterMapped {
  readonly externalAddress: string;
  readonly externalPort: number;
  /** 0: the router only grants permanent mappings (UPnP error 725); nothing to renew. */
  readonly lifetimeSeconds: number;
  readonly handle: MappingHandle;
}

/** A mapping or the router's refusal in words (its result code), for the log and the 'refused' failure. */
export type RouterMapAttempt =
  { readonly ok: true; readonly mapped: RouterMapped } | { readonly ok: false; readonly detail: string };

/** A router that answered a probe; NAT-PMP and UPnP tell the external address, a PCP ANNOUNCE does not. */
export interface RouterProbeAnswer {
  readonly externalAddress: string | undefined;
}

/** One protocol's client for one gateway. */
export interface RouterProtocolClient {
  readonly protocol: PortMapProtocol;
  /** Whether the router answers this protocol within `timeoutMs` (null: it does not), and its address if it says. */
  probe(timeoutMs: number): Promise<RouterProbeAnswer | null>;
  /** Asks for a UDP mapping of `internalPort`; `renewing` repeats an earlier one (same nonce, same external port). */
  map(internalPort: number, lifetimeSeconds: number, renewing?: MappingHandle): Promise<RouterMapAttempt>;
}

/** Where and how the clients talk to the router; every part injectable (tests use a fake router on loopback). */
export interface RouterContext {
  readonly gateway: string;
  /** This machine's address towards the gateway (sockets bind it; PCP and UPnP name it). */
  readonly clientAddress: string;
  readonly openSocket: OpenDatagramSocket;
  readonly http: UpnpHttp;
  readonly scheduler: Scheduler;
  readonly randomBytes: (size: number) => Uint8Array;
  readonly ports: RouterPorts;
  /** Where SSDP searches go besides the gateway itself (the multicast group by default). */
  readonly ssdpTargets: readonly string[];
  /** How long one request (a mapping, a deletion, an HTTP exchange) may take. */
  readonly requestTimeoutMs: number;
}

/** The router's ports: 5351 for NAT-PMP and PCP, 1900 for SSDP; tests move them to free ones. */
export interface RouterPorts {
  readonly natPmp: number;
  readonly pcp: number;
  readonly ssdp: number;
}

/**
 * A client's report of a mapping the router granted: the handle names the context's gateway and our address, plus
 * what the protocol needs to renew or delete it (PCP's nonce, UPnP's service).
 */
export function grantedMapping(
  context: RouterContext,
  protocol: PortMapProtocol,
  granted: Omit<RouterMapped, 'handle'> & { readonly internalPort: number },
  extra: Pick<MappingHandle, 'nonce' | 'controlUrl' | 'serviceType'> = {},
): RouterMapAttempt {
  const { internalPort, ...mapped } = granted;
  const handle: MappingHandle = {
    protocol,
    gateway: context.gateway,
    clientAddress: context.clientAddress,
    internalPort,
    externalPort: granted.externalPort,
    ...extra,
  };
  return { ok: true, mapped: { ...mapped, handle } };
}
