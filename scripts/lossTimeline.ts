// Where the time goes for the slowest reliable messages of the latency bench's workload (bench/labLatency.ts) on a
// virtual clock: per unit, first send → (lost) → the next datagram that arrived (the gap seen) → the ack naming the
// gap back at the sender → re-sent → arrived → delivered.
// Usage: npx tsx scripts/lossTimeline.ts [loss] [seed] [tick s: 0 services every 1 ms step, 0.01 as auto mode]
//        [wake: 1 copies, ACK repeats and loss verdicts leave when due (requestWake), 0 at the next flush]
import { Channel } from '../shared/net/channel';
import { parseNativePacket } from '../main/net/native/wire/nativePacket';
import { Frame } from '../main/net/native/wire/nativeWire';
import { compactJsonSerializer } from '../main/net/v1/serialization';
import { NativePair } from '../tests/support/nativePair';
import { seededRandom } from '../tests/support/seededRandom';
import { percentile } from '../bench/percentile';

const ONE_WAY = 0.02;
const STEP = 0.001;
const PER_CHANNEL = 1000;
const loss = Number(process.argv[2] ?? 0.1);
const seed = Number(process.argv[3] ?? 1);
const tick = Number(process.argv[4] ?? 0);
const noWake = process.argv[5] === '0' ? { requestWake: undefined } : {};

type Side = 'a' | 'b';
interface Datagram {
  from: Side;
  sent: number;
  lost: boolean;
  /** Reliable units it carried, `channel:seq`. */
  units: string[];
  /** ACK frames: channel → whether it named a gap. */
  acks: Map<number, boolean>;
}
interface Unit {
  from: Side;
  key: string;
  /** Indexes into `datagrams` of each transmission. */
  sends: number[];
  delivered?: number;
}

const datagrams: Datagram[] = [];
const units = new Map<string, Unit>();
const random = seededRandom(seed * 7919);
const record = (from: Side) => (d: Uint8Array) => {
  const packet = parseNativePacket(new Uint8Array(d));
  const lost = random() < loss;
  const entry: Datagram = { from, sent: pair.now, lost, units: [], acks: new Map() };
  for (const f of packet.frames) {
    if (f.kind === Frame.MESSAGE && f.channel !== Channel.UNRELIABLE) {
      const key = `${from}:${f.channel}:${f.seq}`;
      entry.units.push(key);
      const unit = units.get(key) ?? { from, key, sends: [] };
      unit.sends.push(datagrams.length);
      units.set(key, unit);
    } else if (f.kind === Frame.ACK)
      entry.acks.set(
        f.channel,
        f.bitmap.some((b) => b !== 0),
      );
  }
  datagrams.push(entry);
  return lost;
};
const pair: NativePair = new NativePair(
  { latency: ONE_WAY, drop: record('a') },
  { latency: ONE_WAY, drop: record('b') },
  seed,
  { a: noWake, b: noWake },
);
pair.serviceInterval = tick;

pair.run(1.2, STEP);
const start = datagrams.length;
const seen: Record<Side, number> = { a: 0, b: 0 };
const counters: Record<string, number> = {};
const collect = () => {
  for (const side of ['a', 'b'] as const) {
    const got = pair.received[side];
    for (; seen[side] < got.length; seen[side]++) {
      const [, payload, channel] = got[seen[side]]!;
      const from = side === 'a' ? 'b' : 'a';
      units.get(`${from}:${channel}:${payload.i as number}`)!.delivered = pair.now;
    }
  }
};
for (let sent = 0; sent < PER_CHANNEL; sent += 2) {
  for (let k = 0; k < 2; k++) {
    for (const side of ['a', 'b'] as const) {
      for (const channel of [Channel.RELIABLE_ORDERED, Channel.RELIABLE_UNORDERED]) {
        const id = `${side}:${channel}`;
        const i = counters[id] ?? 0;
        counters[id] = i + 1;
        pair.send(side, channel === Channel.RELIABLE_ORDERED ? 'ro' : 'ru', { t: pair.now, i }, channel);
      }
    }
  }
  for (let i = 0; i < 10; i++) {
    pair.run(STEP / 2, STEP);
    collect();
  }
}
for (let i = 0; i < 5000; i++) {
  pair.run(STEP / 2, STEP);
  collect();
}
void compactJsonSerializer;

const ms = (s: number) => Math.round(s * 1e4) / 10;
for (const channel of [Channel.RELIABLE_ORDERED, Channel.RELIABLE_UNORDERED]) {
  const list = [...units.values()].filter(
    (u) => u.key.split(':')[1] === String(channel) && u.sends[0]! >= start && u.delivered !== undefined,
  );
  const latency = (u: Unit) => u.delivered! - datagrams[u.sends[0]!]!.sent;
  const all = list.map(latency);
  const p98 = percentile(all, 98);
  console.log(
    `\n${channel === Channel.RELIABLE_ORDERED ? 'ordered' : 'unordered'}: ${list.length} units, p50 ${ms(percentile(all, 50))} ms, p98 ${ms(p98)} ms, p99 ${ms(percentile(all, 99))} ms`,
  );
  const slow = list.filter((u) => latency(u) >= p98);
  const kinds: Record<string, number[]> = {};
  const phases = { gapSeen: [] as number[], ackBack: [] as number[], resent: [] as number[], arrived: [] as number[] };
  for (const u of slow) {
    const first = datagrams[u.sends[0]!]!;
    const t0 = first.sent;
    let kind: string;
    if (!first.lost) kind = 'not lost: waited behind an earlier loss (head of line)';
    else {
      // The gap is seen when a later datagram of the same sender arrives.
      const reveal = datagrams.findIndex((d, i) => i > u.sends[0]! && d.from === u.from && !d.lost);
      const gapSeen = datagrams[reveal]!.sent + ONE_WAY;
      const ch = Number(u.key.split(':')[1]);
      const ackIdx = datagrams.findIndex(
        (d, i) => i > reveal && d.from !== u.from && d.sent >= gapSeen && !d.lost && d.acks.get(ch) === true,
      );
      if (ackIdx < 0) {
        (kinds['lost: recovered without a gap ack (probe or timeout)'] ??= []).push(latency(u));
        continue;
      }
      const ackBack = datagrams[ackIdx]!.sent + ONE_WAY;
      const resend = u.sends.slice(1).map((i) => datagrams[i]!);
      const arrivedBy = [first, ...resend].find((d) => !d.lost);
      const parts: string[] = [];
      if (reveal !== u.sends[0]! + 1 && datagrams[reveal]!.sent - t0 > 0.011) parts.push('next datagram lost too');
      const gapAcks = datagrams.filter(
        (d, i) => i > reveal && i <= ackIdx && d.from !== u.from && d.acks.get(ch) === true && d.sent >= gapSeen,
      );
      if (gapAcks.some((d) => d.lost)) parts.push('gap ack lost');
      if (resend.length > 0 && resend[0]!.lost)
        parts.push(arrivedBy ? 'retransmission lost (copy or next arrived)' : 'all lost');
      kind = `lost${parts.length ? ': ' + parts.join(', ') : ''}`;
      phases.gapSeen.push(gapSeen - t0);
      phases.ackBack.push(ackBack - t0);
      if (resend[0]) phases.resent.push(resend[0].sent - t0);
      if (arrivedBy) phases.arrived.push(arrivedBy.sent + ONE_WAY - t0);
    }
    (kinds[kind] ??= []).push(latency(u));
  }
  for (const [kind, values] of Object.entries(kinds))
    console.log(`  ${values.length} × ${kind}: median ${ms(percentile(values, 50))} ms`);
  for (const [phase, values] of Object.entries(phases))
    if (values.length)
      console.log(
        `  lost ones, send → ${phase}: median ${ms(percentile(values, 50))} ms, max ${ms(Math.max(...values))} ms`,
      );
}
const sum = (f: (c: NativePair['a']) => number) => f(pair.a) + f(pair.b);
console.log(
  `\nredundancy ${((100 * sum((c) => c.counters.redundancyBytes)) / sum((c) => c.reliablePayloadBytes)).toFixed(1)}% of reliable payload, retransmits ${sum((c) => c.counters.retransmits)}, spurious ${sum((c) => c.counters.spuriousRetransmits)}`,
);
