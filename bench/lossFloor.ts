/** One datagram of a direction, as it went: when it left, and when it arrived (undefined: lost). */
export interface TracedDatagram {
  sent: number;
  arrived?: number;
}

/** A reliable message's first transmission: the direction (0 or 1), the datagram it rode (index in that direction). */
export interface FirstSend {
  direction: 0 | 1;
  datagram: number;
  /** When the application sent it (the latency's start). */
  at: number;
  ordered: boolean;
}

/** The first datagram of `list` from index `from` on that left at or after `time` and arrived; its arrival. */
function firstArrivalFrom(list: readonly TracedDatagram[], from: number, time: number): number | undefined {
  let best: number | undefined;
  for (let i = from; i < list.length; i++) {
    const d = list[i]!;
    if (d.sent < time || d.arrived === undefined) continue;
    // Arrivals can reorder (jitter): the earliest arrival among those sent in order is the news's earliest.
    if (best === undefined || d.arrived < best) best = d.arrived;
    else if (d.sent > best) break;
  }
  return best;
}

/** Index of the first datagram of `list` that left at or after `time`. */
function firstSentFrom(list: readonly TracedDatagram[], time: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.sent < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * When an oracle sender would have delivered each message, on the same link and the same loss sequence (the datagrams
 * both ends really sent, with their fates): a message whose datagram arrived is delivered then; one whose datagram was
 * lost is known missing when the next datagram of its direction arrives, that news rides the first datagram back that
 * leaves after it and arrives, and the re-send rides the first datagram of its direction that leaves after the news
 * and arrives. No datagram is added (the same byte budget), none waits for a timer: the earliest any recovery by
 * acknowledgement could deliver. Ordered messages also wait for every earlier ordered message of their direction.
 * Returns each message's latency (delivery − `at`), NaN where the trace ends before a delivery.
 */
export function oracleLatencies(
  directions: readonly [TracedDatagram[], TracedDatagram[]],
  messages: readonly FirstSend[],
): number[] {
  const delivered = messages.map((m) => {
    const out = directions[m.direction];
    const back = directions[m.direction ^ 1]!;
    const first = out[m.datagram];
    if (first === undefined) return Number.NaN;
    if (first.arrived !== undefined) return first.arrived;
    const gapSeen = firstArrivalFrom(out, m.datagram + 1, first.sent);
    if (gapSeen === undefined) return Number.NaN;
    const news = firstArrivalFrom(back, firstSentFrom(back, gapSeen), gapSeen);
    if (news === undefined) return Number.NaN;
    return firstArrivalFrom(out, firstSentFrom(out, news), news) ?? Number.NaN;
  });
  // Head-of-line: an ordered message is delivered no sooner than the ordered ones sent before it, its direction's.
  const latest: [number, number] = [-Infinity, -Infinity];
  const order = messages.map((_, i) => i).sort((a, b) => messages[a]!.at - messages[b]!.at);
  for (const i of order) {
    const m = messages[i]!;
    if (!m.ordered || Number.isNaN(delivered[i]!)) continue;
    latest[m.direction] = Math.max(latest[m.direction], delivered[i]!);
    delivered[i] = latest[m.direction];
  }
  return delivered.map((t, i) => t - messages[i]!.at);
}
