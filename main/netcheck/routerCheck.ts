import type { RouterReport } from '../../shared/netcheck/report';
import { externalAddressFailure } from '../reach/portmap/portMapDecisions';
import { probeRouter, type RouterPortMapperOptions, type RouterProbeReport } from '../reach/portmap/routerPortMapper';

const NAMES = { 'nat-pmp': 'NAT-PMP', pcp: 'PCP', upnp: 'UPnP IGD' } as const;

/**
 * Asks the home router which port-mapping protocols it speaks and its external address (the same probes an internet
 * room makes, without mapping anything). Gateways [] (port mapping off, as in tests) skips it. Never rejects.
 */
export async function checkRouter(
  options: RouterPortMapperOptions,
  probe: (options: RouterPortMapperOptions) => Promise<RouterProbeReport> = probeRouter,
): Promise<RouterReport> {
  if (options.gateways?.length === 0) {
    return {
      status: 'skipped',
      gateway: null,
      offers: [],
      externalAddress: null,
      title: 'Router port mapping not checked',
      message: 'Port mapping is turned off for this app, so the check did not ask the router.',
    };
  }
  return describeRouter(
    await probe(options).catch(() => ({ gateway: undefined, offers: [], externalAddress: undefined })),
  );
}

/** The report's words for what the probes found. Pure. */
export function describeRouter(probed: RouterProbeReport): RouterReport {
  const gateway = probed.gateway ?? null;
  const externalAddress = probed.externalAddress ?? null;
  if (probed.offers.length === 0) {
    return {
      status: 'none',
      gateway,
      offers: [],
      externalAddress,
      title: 'The router opens no ports on request',
      message:
        gateway === null
          ? 'No default gateway was found, so no router was asked.'
          : `The router (${gateway}) answered neither UPnP IGD, NAT-PMP nor PCP. Turn on UPnP or NAT-PMP in its settings, or use a rendezvous server for internet rooms.`,
    };
  }
  const names = probed.offers.map((protocol) => NAMES[protocol]).join(', ');
  const failure = externalAddress ? externalAddressFailure(externalAddress, undefined) : undefined;
  const address = externalAddress ? ` Its external address is ${externalAddress}.` : '';
  let message = `The router (${gateway}) offers ${names}: internet rooms can open their port there.${address}`;
  if (failure?.kind === 'private-external') {
    message = `The router (${gateway}) offers ${names}, but its external address ${externalAddress} is private: another router sits in front of it. Open the port there too, or use a rendezvous server.`;
  } else if (failure?.kind === 'cgnat') {
    message = `The router (${gateway}) offers ${names}, but its external address ${externalAddress} is shared by your provider (carrier-grade NAT): a mapped port cannot be reached. Use a rendezvous server or a VPN.`;
  }
  return {
    status: 'offered',
    gateway,
    offers: [...probed.offers],
    externalAddress,
    title: failure ? 'The router maps ports, but not to the internet' : `The router offers ${names}`,
    message,
  };
}
