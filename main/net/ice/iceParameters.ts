import { isIPv4 } from 'node:net';
import { z } from 'zod';

/**
 * What one side of an ICE session hands the other (through the rendezvous): its credentials and its
 * candidates as SDP candidate lines without the `candidate:` prefix. JSON-safe; untrusted when received.
 */
export interface IceParameters {
  readonly usernameFragment: string;
  readonly password: string;
  readonly candidates: readonly string[];
}

/** Most candidates accepted from a peer: a few interfaces × (host, srflx) + relay; more is an attack. */
export const MAX_REMOTE_CANDIDATES = 32;

// RFC 8445 §5.3: ice-char = ALPHA / DIGIT / "+" / "/"; ufrag ≥ 4, pwd ≥ 22, both ≤ 256.
const iceChars = /^[A-Za-z0-9+/]+$/;

const iceParametersSchema = z.object({
  usernameFragment: z.string().min(4).max(256).regex(iceChars, 'ICE username fragment: only A–Z a–z 0–9 + /'),
  password: z.string().min(22).max(256).regex(iceChars, 'ICE password: only A–Z a–z 0–9 + /'),
  candidates: z
    .array(z.string().min(1).max(512))
    .min(1, 'the peer offered no candidate')
    .max(MAX_REMOTE_CANDIDATES, `the peer offered more than ${MAX_REMOTE_CANDIDATES} candidates`),
});

/** Remote ICE parameters that failed validation; the message names what was wrong. */
export class IceParametersError extends Error {
  override name = 'IceParametersError';
}

/** Validates parameters received from a peer; throws {@link IceParametersError} naming the first problem. */
export function parseIceParameters(value: unknown): IceParameters {
  const parsed = iceParametersSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new IceParametersError(`bad ICE parameters from the peer: ${where}${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** The parts of one candidate line we check before werift sees it. */
export interface CandidateLine {
  readonly type: 'host' | 'srflx' | 'relay';
  readonly host: string;
  readonly port: number;
}

/**
 * Reads `foundation component transport priority host port typ TYPE …`: UDP, IPv4 and host/srflx/relay only.
 * Returns undefined for a line we skip on purpose (TCP, IPv6, an mDNS `.local` name that would stall werift for
 * 10 s, a peer-reflexive type werift drops anyway) and throws for one that is malformed.
 */
export function checkCandidateLine(line: string): CandidateLine | undefined {
  const fields = line.trim().split(/\s+/);
  const [foundation, component, transport, priority, host, portText, typ, type] = fields;
  if (
    fields.length < 8 ||
    typ !== 'typ' ||
    !foundation ||
    !/^\d+$/.test(component ?? '') ||
    !/^\d+$/.test(priority ?? '')
  ) {
    throw new IceParametersError(`bad ICE candidate from the peer: "${line.slice(0, 80)}"`);
  }
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new IceParametersError(`bad ICE candidate port from the peer: "${line.slice(0, 80)}"`);
  }
  if (transport?.toLowerCase() !== 'udp' || !host || !isIPv4(host)) return undefined;
  if (type !== 'host' && type !== 'srflx' && type !== 'relay') return undefined;
  return { type, host, port };
}

/**
 * The address a peer's own parameters say it has: its first server-reflexive candidate (its public address), else
 * its first host candidate; undefined when it names neither. Read from what the peer sealed, never from the path
 * (a relayed peer's path ends at the TURN server, which every relayed peer shares).
 */
export function ownAddressOf(params: { readonly candidates?: unknown }): string | undefined {
  const lines = Array.isArray(params.candidates) ? params.candidates.slice(0, MAX_REMOTE_CANDIDATES) : [];
  const read = (type: CandidateLine['type']) =>
    lines.flatMap((line) => {
      try {
        const candidate = typeof line === 'string' ? checkCandidateLine(line.replace(/^candidate:/, '')) : undefined;
        return candidate?.type === type ? [candidate.host] : [];
      } catch {
        return [];
      }
    })[0];
  return read('srflx') ?? read('host');
}
