import type { ConditionerSummary, NetLinkStats, NetStats } from '../../shared/ipc/schemas/game';
import type { ConnectionStats } from '../net/index';
import type { GameRoom, GameSeat } from './gameServiceTypes';

/** Links listed at most (the contract's bound; rooms hold 16 players). */
const MAX_LINKS = 32;

/** One connection's health in the units the net graph plots (ms, 0–1). */
export function linkOf(peerId: number, name: string, s: ConnectionStats): NetLinkStats {
  return {
    peerId,
    name,
    rttMs: s.rtt === undefined ? null : s.rtt * 1000,
    jitterMs: s.jitter * 1000,
    loss: Math.min(1, Math.max(0, s.loss)),
    packetsSentPerSecond: s.packetsSentPerSecond,
    packetsReceivedPerSecond: s.packetsReceivedPerSecond,
  };
}

/**
 * `net.stats` for where we are: the host's link to each guest, a guest's one link to the host, or nothing; with the
 * room's snapshot rate (the host's choice, or what a guest receives).
 */
export function netStatsOf(
  place: GameRoom | GameSeat | null,
  conditioner: ConditionerSummary,
  snapshotsPerSecond: number | null,
): NetStats {
  if (place === null) return { role: null, links: [], conditioner, snapshotsPerSecond: null };
  if ('getPeers' in place.transport) {
    const names = new Map(place.state.players.map((p) => [p.id, p.name]));
    // By seat when the room holds seats: a guest back on a new connection keeps its name here.
    const peers = ((place as GameRoom).gameTransport ?? place.transport).getPeers();
    const links = peers.map((p) => linkOf(p.id, names.get(p.id) ?? `#${p.id}`, p.stats()));
    return { role: 'host', links: links.slice(0, MAX_LINKS), conditioner, snapshotsPerSecond };
  }
  const s = place.transport.stats();
  const hostName = place.state.players.find((p) => p.host)?.name ?? 'host';
  const links = s === undefined ? [] : [linkOf(0, hostName, s)];
  return { role: 'guest', links, conditioner, snapshotsPerSecond };
}
