import type { DatagramSocket } from '../../../net/index';
import {
  grantedMapping,
  type MappingHandle,
  type RouterContext,
  type RouterProtocolClient,
  type RouterMapAttempt,
} from './routerProtocol';
import {
  addPortMappingArguments,
  deletePortMappingArguments,
  encodeSoapRequest,
  encodeSsdpSearch,
  IGD_SEARCH_TARGETS,
  parseIgdDescription,
  parseSoapResponse,
  parseSsdpResponse,
  type IgdService,
  type SoapResult,
} from './upnpMessages';

/** Shown in the router's list of mappings. */
const MAPPING_DESCRIPTION = 'LAN Party room';
/** UPnP errors (IGD v2 WANIPConnection §2.4.16): the port is taken; only permanent leases are supported. */
const CONFLICT_IN_MAPPING_ENTRY = 718;
const ONLY_PERMANENT_LEASES = 725;
/** Other external ports to try when the room's own is taken on a v1 router (AddPortMapping picks none itself). */
const OTHER_PORT_TRIES = 3;

/**
 * A UPnP IGD client for the context's gateway: SSDP search (to the gateway and the configured targets), the
 * device description, then the WAN connection service's SOAP actions. Only the gateway may answer the search,
 * and its description must live on the gateway: a neighbour cannot steer the mapping elsewhere.
 */
export function createUpnpClient(context: RouterContext): RouterProtocolClient {
  let found: { service: IgdService; externalAddress: string } | undefined;
  return {
    protocol: 'upnp',
    async probe(timeoutMs) {
      const started = context.scheduler.now();
      const location = await searchGateway(context, timeoutMs);
      if (!location) return null;
      const left = () => Math.max(1, timeoutMs - (context.scheduler.now() - started));
      const description = await context.http({
        url: location,
        method: 'GET',
        timeoutMs: left(),
        scheduler: context.scheduler,
      });
      if (!description || description.status !== 200) return null;
      const service = parseIgdDescription(description.body, location);
      if (!service || !onGateway(service.controlUrl, context.gateway)) return null;
      const address = await soap(context, service, 'GetExternalIPAddress', [], ['NewExternalIPAddress'], left());
      const externalAddress = address.ok ? address.values.NewExternalIPAddress : undefined;
      if (!externalAddress) return null;
      found = { service, externalAddress };
      return { externalAddress };
    },
    async map(internalPort, lifetimeSeconds, renewing) {
      if (!found) return { ok: false, detail: 'no IGD found' };
      const { service, externalAddress } = found;
      const attempt = await addMapping(context, service, internalPort, lifetimeSeconds, renewing?.externalPort);
      if (!attempt.ok) return attempt;
      const granted = { externalAddress, externalPort: attempt.externalPort, lifetimeSeconds: attempt.lifetimeSeconds };
      const { controlUrl, serviceType } = service;
      return grantedMapping(context, 'upnp', { internalPort, ...granted }, { controlUrl, serviceType });
    },
  };
}

/** Deletes a UPnP mapping by its external port (DeletePortMapping). */
export async function removeUpnpMapping(context: RouterContext, handle: MappingHandle): Promise<boolean> {
  if (!handle.controlUrl || !handle.serviceType || !onGateway(handle.controlUrl, handle.gateway)) return false;
  const service = { controlUrl: handle.controlUrl, serviceType: handle.serviceType };
  const result = await soap(
    context,
    service,
    'DeletePortMapping',
    deletePortMappingArguments(handle.externalPort),
    [],
    context.requestTimeoutMs,
  );
  return result.ok;
}

type AddResult = { ok: true; externalPort: number; lifetimeSeconds: number } | Extract<RouterMapAttempt, { ok: false }>;

/**
 * AddAnyPortMapping (IGD v2: the router picks a free port) when not renewing, then AddPortMapping with the wanted
 * port, then a few random ones if it is taken; a router that only keeps permanent mappings gets lease 0.
 */
async function addMapping(
  context: RouterContext,
  service: IgdService,
  internalPort: number,
  leaseSeconds: number,
  renewingPort: number | undefined,
): Promise<AddResult> {
  const args = (externalPort: number, lease: number) =>
    addPortMappingArguments({
      externalPort,
      internalPort,
      internalClient: context.clientAddress,
      description: MAPPING_DESCRIPTION,
      leaseSeconds: lease,
    });
  if (renewingPort === undefined) {
    const any = await soap(
      context,
      service,
      'AddAnyPortMapping',
      args(internalPort, leaseSeconds),
      ['NewReservedPort'],
      context.requestTimeoutMs,
    );
    const reserved = any.ok ? Number(any.values.NewReservedPort) : NaN;
    if (Number.isInteger(reserved) && reserved > 0 && reserved <= 65535)
      return { ok: true, externalPort: reserved, lifetimeSeconds: leaseSeconds };
  }
  const ports = [
    renewingPort ?? internalPort,
    ...Array.from({ length: renewingPort === undefined ? OTHER_PORT_TRIES : 0 }, () => randomPort(context)),
  ];
  let lease = leaseSeconds;
  let last: SoapResult | undefined;
  for (let i = 0; i < ports.length; i += 1) {
    const port = ports[i]!;
    last = await soap(context, service, 'AddPortMapping', args(port, lease), [], context.requestTimeoutMs);
    if (last.ok) return { ok: true, externalPort: port, lifetimeSeconds: lease };
    if (last.errorCode === ONLY_PERMANENT_LEASES && lease !== 0) {
      lease = 0;
      i -= 1; // the same port again, permanent
      continue;
    }
    if (last.errorCode !== CONFLICT_IN_MAPPING_ENTRY) break;
  }
  const detail = last && !last.ok ? `UPnP error ${last.errorCode} (${last.description})` : 'no answer';
  return { ok: false, detail };
}

/** Sends the M-SEARCHes (resent at 250 ms, doubling) and resolves with the first IGD location the gateway gives. */
async function searchGateway(context: RouterContext, timeoutMs: number): Promise<string | null> {
  let socket: DatagramSocket;
  try {
    socket = await context.openSocket({ port: 0, host: context.clientAddress, recvBufferSize: 0 });
  } catch {
    return null;
  }
  const { scheduler } = context;
  const searches = IGD_SEARCH_TARGETS.map((target) => encodeSsdpSearch(target));
  const targets = [context.gateway, ...context.ssdpTargets.filter((target) => target !== context.gateway)];
  try {
    return await new Promise<string | null>((resolve) => {
      let resendTimer: unknown;
      let waitMs = 250;
      const finish = (location: string | null): void => {
        scheduler.clearTimer(resendTimer);
        scheduler.clearTimer(deadline);
        resolve(location);
      };
      const send = (): void => {
        for (const target of targets) for (const search of searches) socket.send(search, context.ports.ssdp, target);
        resendTimer = scheduler.setTimer(send, waitMs);
        waitMs *= 2;
      };
      socket.listen({
        message: (datagram, from) => {
          if (from.address !== context.gateway) return;
          const response = parseSsdpResponse(datagram);
          if (response && onGateway(response.location, context.gateway)) finish(response.location);
        },
        sendError: () => undefined,
        error: () => undefined,
      });
      const deadline = scheduler.setTimer(() => finish(null), timeoutMs);
      send();
    });
  } finally {
    await socket.close();
  }
}

async function soap(
  context: RouterContext,
  service: IgdService,
  action: string,
  args: readonly (readonly [string, string | number])[],
  outArguments: readonly string[],
  timeoutMs: number,
): Promise<SoapResult> {
  const { body, soapAction } = encodeSoapRequest(service.serviceType, action, args);
  const response = await context.http({
    url: service.controlUrl,
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset="utf-8"', SOAPAction: soapAction },
    body,
    timeoutMs,
    scheduler: context.scheduler,
  });
  if (!response) return { ok: false, errorCode: 0, description: 'no answer' };
  const result = parseSoapResponse(response.body, action, outArguments);
  if (response.status !== 200 && result.ok) return { ok: false, errorCode: 0, description: `HTTP ${response.status}` };
  return result;
}

/** Whether a URL names the gateway's own address (plain http). */
function onGateway(url: string, gateway: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && parsed.hostname === gateway;
  } catch {
    return false;
  }
}

function randomPort(context: RouterContext): number {
  const bytes = context.randomBytes(2);
  return 1024 + (((bytes[0]! << 8) | bytes[1]!) % (65536 - 1024));
}
