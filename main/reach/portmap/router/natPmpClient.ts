import { askGateway } from './routerExchange';
import {
  encodeNatPmpExternalAddressRequest,
  encodeNatPmpMapRequest,
  natPmpResultText,
  parseNatPmpResponse,
  type NatPmpExternalAddress,
  type NatPmpMapResponse,
} from './natPmpMessages';
import { grantedMapping, type MappingHandle, type RouterContext, type RouterProtocolClient } from './routerProtocol';

/** A NAT-PMP (RFC 6886) client for the context's gateway. */
export function createNatPmpClient(context: RouterContext): RouterProtocolClient {
  let externalAddress: string | undefined;
  const askAddress = async (timeoutMs: number): Promise<NatPmpExternalAddress | null> =>
    askGateway(context, context.ports.natPmp, {
      request: encodeNatPmpExternalAddressRequest(),
      parse: (datagram) => {
        const answer = parseNatPmpResponse(datagram);
        return answer?.kind === 'external-address' ? answer : null;
      },
      timeoutMs,
    });
  return {
    protocol: 'nat-pmp',
    async probe(timeoutMs) {
      const answer = await askAddress(timeoutMs);
      if (answer?.resultCode !== 0) return null;
      externalAddress = answer.externalAddress;
      return { externalAddress };
    },
    async map(internalPort, lifetimeSeconds, renewing) {
      const answer = await askNatPmpMap(context, internalPort, renewing?.externalPort ?? internalPort, lifetimeSeconds);
      if (!answer) return { ok: false, detail: 'no answer to the mapping request' };
      if (answer.resultCode !== 0) return { ok: false, detail: natPmpResultText(answer.resultCode) };
      if (externalAddress === undefined) {
        const address = await askAddress(context.requestTimeoutMs);
        if (address?.resultCode !== 0) return { ok: false, detail: 'no answer to the external address request' };
        externalAddress = address.externalAddress;
      }
      const granted = { externalAddress, externalPort: answer.externalPort, lifetimeSeconds: answer.lifetimeSeconds };
      return grantedMapping(context, 'nat-pmp', { internalPort, ...granted });
    },
  };
}

/** Deletes a NAT-PMP mapping: a request for its internal port with lifetime 0 and external port 0 (§3.4). */
export async function removeNatPmpMapping(context: RouterContext, handle: MappingHandle): Promise<boolean> {
  const answer = await askNatPmpMap(context, handle.internalPort, 0, 0);
  return answer?.resultCode === 0;
}

function askNatPmpMap(
  context: RouterContext,
  internalPort: number,
  externalPort: number,
  lifetimeSeconds: number,
): Promise<NatPmpMapResponse | null> {
  return askGateway(context, context.ports.natPmp, {
    request: encodeNatPmpMapRequest(internalPort, externalPort, lifetimeSeconds),
    parse: (datagram) => {
      const answer = parseNatPmpResponse(datagram);
      return answer?.kind === 'map' && answer.internalPort === internalPort ? answer : null;
    },
  });
}
