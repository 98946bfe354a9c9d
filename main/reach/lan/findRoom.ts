import { IpcError, IpcErrorCode } from '../../../shared/ipc/errors';
import { completeShortCode, type JoinCode } from '../../../shared/roomCode';
import {
  connectedSubnets,
  isOnSubnets,
  type DiscoveryAdvert,
  type NetworkInterfacesLike,
  type ProbeResult,
} from '../../net/discovery';
import type { RoomTarget } from '../roomReach';
import { networkErrorSentence } from '../../base/networkErrorSentence';

/** An address a code may stand for, with the interface it was completed from (short codes). */
export interface RoomCandidate extends RoomTarget {
  readonly interfaceName: string | null;
  /** Completed from a loopback interface: only this machine answers there. */
  readonly internal: boolean;
}

/** The room a code led to, with what its discovery reply said (when it was the room's own reply). */
export interface FoundRoom {
  readonly target: RoomTarget;
  readonly advert: DiscoveryAdvert | undefined;
  /** The machine answered with another of its rooms' adverts: this room may be there too, or gone. */
  readonly otherRoom?: DiscoveryAdvert;
}

/** What {@link findRoom} needs: this machine's interfaces, the discovery port and the probe. */
export interface FindRoomDeps {
  readonly interfaces: NetworkInterfacesLike;
  readonly discoveryPort: number;
  readonly probe: (host: string) => Promise<ProbeResult>;
  readonly platform?: string;
  /** The code's candidates when the caller already has them; default {@link candidatesFor} the interfaces. */
  readonly candidates?: readonly RoomCandidate[];
}

const isV4 = (family: string | number) => family === 'IPv4' || family === 4;

/**
 * Where a code may lead. A full code names one address. A short code is completed on each of this machine's
 * IPv4 subnets (its prefix plus the code's host part), so a machine on two networks gets two candidates;
 * loopback comes last, as only a room on this very machine answers there.
 */
export function candidatesFor(code: JoinCode, interfaces: NetworkInterfacesLike): RoomCandidate[] {
  if (code.kind === 'full') return [{ host: code.host, port: code.port, interfaceName: null, internal: false }];
  const seen = new Set<string>();
  const out: RoomCandidate[] = [];
  for (const [interfaceName, entries] of Object.entries(interfaces)) {
    for (const entry of entries ?? []) {
      if (!isV4(entry.family)) continue;
      const host = completeShortCode(code.hostPart, entry);
      if (host === undefined || seen.has(host)) continue;
      seen.add(host);
      out.push({ host, port: code.port, interfaceName, internal: entry.internal });
    }
  }
  return out.sort((a, b) => Number(a.internal) - Number(b.internal));
}

/** The one address to try without confirmation: the only LAN candidate (loopback aside), or the only one. */
export function soleCandidate(candidates: readonly RoomCandidate[]): RoomCandidate | undefined {
  const lan = candidates.filter((candidate) => !candidate.internal);
  if (lan.length === 1) return lan[0];
  return candidates.length === 1 ? candidates[0] : undefined;
}

function describeSubnets(interfaces: NetworkInterfacesLike): string {
  const parts: string[] = [];
  for (const [name, entries] of Object.entries(interfaces)) {
    for (const e of entries ?? []) if (isV4(e.family)) parts.push(`${name} ${e.address}/${e.netmask}`);
  }
  return parts.length > 0 ? parts.join(', ') : 'none';
}

function probeDetail(result: ProbeResult, discoveryPort: number): string {
  const where = `discovery query to ${result.host}:${discoveryPort}`;
  switch (result.kind) {
    case 'answered':
      return `${where}: answered in ${result.rttMs.toFixed(0)} ms`;
    case 'no-answer':
      return `${where}: no answer to ${result.attempts} queries in ${result.waitedMs.toFixed(0)} ms`;
    case 'send-failed':
      return `${where}: ${result.failure.code} (${result.failure.message})`;
  }
}

/**
 * Confirms a code before connecting: probes every candidate at once (each answers or gives up within the
 * probe's ~300 ms) and returns the one that answered, a LAN address before loopback. Throws an IpcError in
 * plain words, with what was tried in its detail: NOT_FOUND when the one address stayed silent (it may still
 * be a gale.net server without discovery: the player may try anyway), UNAVAILABLE when nothing can be reached.
 */
export async function findRoom(code: JoinCode, deps: FindRoomDeps): Promise<FoundRoom> {
  const candidates = deps.candidates ?? candidatesFor(code, deps.interfaces);
  if (candidates.length === 0) {
    throw new IpcError(
      IpcErrorCode.UNAVAILABLE,
      'A short code works only on the host’s own network, and this computer is on no network it fits. ' +
        'Ask the host for the full code (“Code for gale.net games”).',
      `host part ${code.kind === 'short' ? code.hostPart : '?'} fits none of this computer's subnets: ` +
        describeSubnets(deps.interfaces),
    );
  }
  const results = await Promise.all(candidates.map((candidate) => deps.probe(candidate.host)));
  const detail = results.map((result) => probeDetail(result, deps.discoveryPort)).join('; ');
  const answeredAt = results.findIndex((result) => result.kind === 'answered');
  const answered = results[answeredAt];
  const candidate = candidates[answeredAt];
  if (answered?.kind === 'answered' && candidate) {
    // Rooms on one machine share its discovery port, and only one of them answers: another room's advert
    // confirms the machine, but says nothing about this room's players or password.
    const own = answered.advert.port === candidate.port;
    const target = { host: candidate.host, port: candidate.port };
    return own ? { target, advert: answered.advert } : { target, advert: undefined, otherRoom: answered.advert };
  }
  const failures = results.filter((result) => result.kind === 'send-failed');
  if (failures.length === results.length && failures[0]?.kind === 'send-failed') {
    throw new IpcError(IpcErrorCode.UNAVAILABLE, networkErrorSentence(failures[0].failure.code, deps.platform), detail);
  }
  const only = soleCandidate(candidates);
  // Responders answer only their own subnets: silence from a routed or VPN address (a Tailscale /32) proves
  // nothing, so such a full code is connected to as before rather than refused.
  if (code.kind === 'full' && only && !isOnSubnets(only.host, connectedSubnets(deps.interfaces))) {
    return { target: { host: only.host, port: only.port }, advert: undefined };
  }
  if (only) {
    throw new IpcError(
      IpcErrorCode.NOT_FOUND,
      `No room answered at ${only.host}:${only.port}. Check the code with the host, and that you are on the same ` +
        'network. A gale.net game server without LAN discovery stays silent too: then try anyway.',
      detail,
    );
  }
  throw new IpcError(
    IpcErrorCode.UNAVAILABLE,
    `No room answered on any of your networks (tried ${candidates.map((c) => c.host).join(', ')}). Check the ` +
      'code with the host, and that you are on the same network.',
    detail,
  );
}
