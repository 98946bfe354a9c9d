// The latency bench's lossy run (bench/labLatency.ts, real sockets through the LinkConditioner), traced: for the
// slowest 2% of reliable messages, first send → re-sent (and why) → arrived → delivered, from wrappers around
// NativeConnection's private transmit/receive/resend/deliver (the shipped code carries no tracing).
// Usage: npx tsx scripts/lossTimelineLive.ts [loss]
import { NativeConnection } from '../main/net/native/nativeConnection';
import { NativeRecovery } from '../main/net/native/recovery/nativeRecovery';
import { parseNativePacket } from '../main/net/native/nativePacket';
import { Frame } from '../main/net/native/nativeWire';
import { compactJsonSerializer } from '../main/net/v1/serialization';
import { Channel } from '../shared/net/channel';
import { measure } from '../bench/labLatency';
import { percentile } from '../bench/percentile';

interface Unit {
  sends: { at: number; pn: number; cause: string }[];
  arrivals: { at: number; pn: number }[];
  delivered?: number;
  t?: number;
}
type Hooks = Record<'transmit' | 'receiveDatagram' | 'resend' | 'deliver', (...args: never[]) => unknown>;
const proto = NativeConnection.prototype as unknown as Hooks;
const ids = new WeakMap<object, number>();
let nextId = 0;
const idOf = (c: object) => ids.get(c) ?? (ids.set(c, nextId++), nextId - 1);
const units = new Map<string, Unit>();
const byBody = new Map<string, string>();
/** Receiver, channel and send stamp of a message → its unit. */
/** Per connection's recovery: the cause of the resend being packed now, if any. */
const pendingCause = new Map<object, string>();
const now = () => performance.now();
const unit = (key: string) => units.get(key) ?? (units.set(key, { sends: [], arrivals: [] }), units.get(key)!);

const { transmit, receiveDatagram, deliver } = proto;
proto.transmit = function (this: object, d: Uint8Array) {
  const me = idOf(this);
  const packet = parseNativePacket(new Uint8Array(d));
  for (const f of packet.frames) {
    if (f.kind !== Frame.MESSAGE || f.channel === Channel.UNRELIABLE) continue;
    const key = `${me}:${f.channel}:${f.seq}`;
    const u = unit(key);
    if (u.sends.length === 0) {
      const t = (compactJsonSerializer.deserialize(f.body).payload as { t: number }).t;
      byBody.set(`${me ^ 1}:${f.channel}:${t}`, key);
    }
    const cause = u.sends.length === 0 ? 'first' : (pendingCause.get(recoveryOf(this)) ?? 'copy');
    u.sends.push({ at: now(), pn: packet.packetNumber, cause });
  }
  pendingCause.delete(recoveryOf(this));
  return (transmit as (d: Uint8Array) => boolean).call(this, d);
} as never;
// Re-sends are the connection's loss recovery's (NativeRecovery).
const recoveryProto = NativeRecovery.prototype as unknown as Pick<Hooks, 'resend'>;
const { resend } = recoveryProto;
/** A connection's loss recovery, which the cause of a resend is recorded under. */
const recoveryOf = (connection: object) => (connection as unknown as { recovery: object }).recovery;
recoveryProto.resend = function (this: object, channel: number, entries: unknown[], cause: string) {
  pendingCause.set(this, cause);
  return (resend as (...a: unknown[]) => void).call(this, channel, entries, cause);
} as never;
proto.receiveDatagram = function (this: object, d: Uint8Array, path?: unknown) {
  const me = idOf(this);
  try {
    const packet = parseNativePacket(new Uint8Array(d));
    for (const f of packet.frames) {
      if (f.kind !== Frame.MESSAGE || f.channel === Channel.UNRELIABLE) continue;
      // The sender is the other connection of the pair (ids 0 and 1 in the lossy run).
      const key = `${me ^ 1}:${f.channel}:${f.seq}`;
      unit(key).arrivals.push({ at: now(), pn: packet.packetNumber });
    }
  } catch {
    // not ours to judge: the connection drops it
  }
  return (receiveDatagram as (...a: unknown[]) => void).call(this, d, path);
} as never;
proto.deliver = function (this: object, body: Uint8Array, channel: number) {
  const t = (compactJsonSerializer.deserialize(body).payload as { t?: number }).t;
  const key = byBody.get(`${idOf(this)}:${channel}:${t}`);
  if (key !== undefined) {
    const u = unit(key);
    u.delivered ??= now();
    u.t = t;
  }
  return (deliver as (...a: unknown[]) => void).call(this, body, channel);
} as never;

const loss = Number(process.argv[2] ?? 0.1);
// The learned reorder window of each connection over the run, sampled every 250 ms.
const live = new Set<NativeConnection>();
const { service } = proto as unknown as { service: (now: number) => void };
(proto as unknown as { service: unknown }).service = function (this: NativeConnection, t: number) {
  live.add(this);
  return service.call(this, t);
};
const windows: string[] = [];
const sampler = setInterval(() => {
  const w = [...live].map((c) => `${(c.reorderWindow * 1000).toFixed(1)}/${((c.rtt.smoothed ?? 0) * 1000).toFixed(0)}`);
  windows.push(w.join(' '));
}, 250);
void measure(loss).then(() => {
  clearInterval(sampler);
  console.log(`reorder window/srtt ms, every 250 ms: ${windows.join(' | ')}`);
  const ms = (s: number) => Math.round(s * 10) / 10;
  for (const channel of [Channel.RELIABLE_ORDERED, Channel.RELIABLE_UNORDERED]) {
    const list = [...units.values()].filter(
      (u, i) => u.t !== undefined && [...units.keys()][i]!.split(':')[1] === String(channel),
    );
    const latency = (u: Unit) => u.delivered! - u.t!;
    const all = list.map(latency);
    const p98 = percentile(all, 98);
    console.log(
      `\n${channel === Channel.RELIABLE_ORDERED ? 'ordered' : 'unordered'}: ${list.length} units, p50 ${ms(percentile(all, 50))} p98 ${ms(p98)} p99 ${ms(percentile(all, 99))} ms`,
    );
    for (const u of list.filter((x) => latency(x) >= p98).sort((a, b) => latency(b) - latency(a))) {
      const t0 = u.t!;
      const sends = u.sends.map(
        (s) => `${s.cause}@${ms(s.at - t0)}${u.arrivals.some((a) => a.pn === s.pn) ? '' : '✗'}`,
      );
      const first = u.arrivals[0] ? ms(u.arrivals[0].at - t0) : '-';
      console.log(
        `  ${ms(latency(u))} ms: sends ${sends.join(' ')} | arrived ${first} | delivered ${ms(u.delivered! - t0)}`,
      );
    }
  }
});
