import { askGateway } from './routerExchange';
import {
  encodePcpAnnounceRequest,
  encodePcpMapRequest,
  parsePcpResponse,
  Pcp,
  pcpResultText,
  type PcpResponse,
} from './pcpMessages';
import { grantedMapping, type MappingHandle, type RouterContext, type RouterProtocolClient } from './routerProtocol';

/** Result codes that still prove a PCP server: SUCCESS, and UNSUPP_OPCODE from one that skips ANNOUNCE. */
const PROBE_ANSWERS = new Set([0, 4]);

/** A PCP (RFC 6887) client for the context's gateway: ANNOUNCE to probe, MAP to map. */
export function createPcpClient(context: RouterContext): RouterProtocolClient {
  return {
    protocol: 'pcp',
    async probe(timeoutMs) {
      const answer = await askGateway(context, context.ports.pcp, {
        request: encodePcpAnnounceRequest(context.clientAddress),
        parse: (datagram) => {
          const response = parsePcpResponse(datagram);
          return response?.opcode === Pcp.OP_ANNOUNCE ? response : null;
        },
        timeoutMs,
      });
      return answer !== null && PROBE_ANSWERS.has(answer.resultCode) ? { externalAddress: undefined } : null;
    },
    async map(internalPort, lifetimeSeconds, renewing) {
      const nonce = renewing?.nonce ? fromHex(renewing.nonce) : context.randomBytes(Pcp.NONCE_BYTES);
      const answer = await askPcpMap(
        context,
        nonce,
        internalPort,
        renewing?.externalPort ?? internalPort,
        lifetimeSeconds,
      );
      if (!answer) return { ok: false, detail: 'no answer to the MAP request' };
      if (answer.resultCode !== 0) return { ok: false, detail: pcpResultText(answer.resultCode) };
      const externalAddress = answer.map!.externalAddress;
      if (externalAddress === undefined) return { ok: false, detail: 'the router gave an IPv6 external address' };
      const { externalPort } = answer.map!;
      const granted = { internalPort, externalAddress, externalPort, lifetimeSeconds: answer.lifetimeSeconds };
      return grantedMapping(context, 'pcp', granted, { nonce: toHex(nonce) });
    },
  };
}

/** Deletes a PCP mapping: a MAP with the same nonce and lifetime 0 (§15). */
export async function removePcpMapping(context: RouterContext, handle: MappingHandle): Promise<boolean> {
  if (!handle.nonce) return false;
  const answer = await askPcpMap(context, fromHex(handle.nonce), handle.internalPort, handle.externalPort, 0);
  return answer?.resultCode === 0;
}

function askPcpMap(
  context: RouterContext,
  nonce: Uint8Array,
  internalPort: number,
  suggestedExternalPort: number,
  lifetimeSeconds: number,
): Promise<PcpResponse | null> {
  return askGateway(context, context.ports.pcp, {
    request: encodePcpMapRequest({
      clientAddress: context.clientAddress,
      nonce,
      internalPort,
      suggestedExternalPort,
      lifetimeSeconds,
    }),
    parse: (datagram) => {
      const response = parsePcpResponse(datagram);
      // The answer to this request: same nonce, protocol and internal port (RFC 6887 §11.4).
      const map = response?.map;
      if (!map || map.protocol !== Pcp.PROTOCOL_UDP || map.internalPort !== internalPort) return null;
      return sameBytes(map.nonce, nonce) ? response : null;
    },
  });
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}
