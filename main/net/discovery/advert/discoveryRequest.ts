import { DISCOVERY, hasDiscoveryMagic } from './discoveryProtocol';
import { isValidInstanceId } from './discoveryReply';

/** A request a responder will answer: the reference's bare magic, or LAN Party's query asking for rich fields. */
export type DiscoveryRequest =
  | { readonly kind: 'reference'; readonly size: number }
  | { readonly kind: 'lanparty'; readonly size: number; readonly instanceId?: string; readonly nonce?: number };

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * LAN Party's query: the magic, then `{"query": "lanparty", ...}` padded with JSON whitespace to
 * {@link DISCOVERY.QUERY_BYTES}. Reference servers answer it like a bare request (they only check the prefix);
 * the padding lets our responders send the rich reply without ever sending more bytes than they received.
 */
export function buildDiscoveryQuery(options: { instanceId?: string; nonce?: number } = {}): Uint8Array {
  const body: Record<string, unknown> = { query: DISCOVERY.QUERY_MARKER, v: DISCOVERY.PROTOCOL_VERSION };
  if (options.instanceId !== undefined) body.id = options.instanceId;
  if (options.nonce !== undefined) body.nonce = options.nonce;
  const text = DISCOVERY.MAGIC + JSON.stringify(body);
  const bytes = encoder.encode(text);
  const padded = new Uint8Array(Math.max(DISCOVERY.QUERY_BYTES, bytes.length)).fill(0x20);
  padded.set(bytes);
  return padded;
}

/**
 * Classifies a datagram received on the discovery port. Returns undefined for anything that is not a request
 * we answer: oversized, malformed, or reply-shaped (answering replies could start a reply ping-pong with a
 * reference server, which answers anything that starts with the magic).
 */
export function parseDiscoveryRequest(datagram: Uint8Array): DiscoveryRequest | undefined {
  if (datagram.length > DISCOVERY.MAX_DATAGRAM_BYTES || !hasDiscoveryMagic(datagram)) return undefined;
  let text: string;
  try {
    text = strictDecoder.decode(datagram.subarray(DISCOVERY.MAGIC.length));
  } catch {
    return undefined;
  }
  if (text.trim() === '') return { kind: 'reference', size: datagram.length };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const fields = body as Record<string, unknown>;
  if (fields.query !== DISCOVERY.QUERY_MARKER) return undefined;
  const nonce = fields.nonce;
  return {
    kind: 'lanparty',
    size: datagram.length,
    ...(isValidInstanceId(fields.id) ? { instanceId: fields.id } : {}),
    ...(typeof nonce === 'number' && Number.isInteger(nonce) && nonce >= 0 && nonce <= 0xffffffff ? { nonce } : {}),
  };
}
