import type { BenchResult } from './benchResult';
import type { RateSample } from './benchSubject';
import { roundsRow } from './rounds';

/**
 * The bare-socket ceiling against ENet, and ours against that ceiling, per round: the full datagrams/s a socket doing
 * nothing else delivered, times the messages one of our datagrams carried in the same round. Ours can reach k× ENet
 * only while the ceiling is above k× ENet: the row shows how much of the send budget the kernel alone takes.
 */
export function ceilingRows(
  ours: readonly RateSample[],
  enet: readonly number[],
  fullName: string,
  fullDatagrams: readonly number[],
): BenchResult[] {
  const ceiling = fullDatagrams.map((rate, i) => rate / ours[i]!.datagramsPerMessage!);
  const oursRates = ours.map((r) => r.rate);
  const row = (name: string, value: number[], baseline: readonly number[]) =>
    roundsRow(name, 'msg/s', value, [...baseline], true);
  return [
    row(`ceiling: ${fullName} × native+bytes messages per datagram (no work per message), vs ENet`, ceiling, enet),
    row('native+bytes vs that ceiling (what the transport leaves of it)', oursRates, ceiling),
  ];
}
