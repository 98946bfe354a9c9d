import { NativeConnection } from '../main/net/native/nativeConnection';
import { parseNativePacket } from '../main/net/native/nativePacket';
import { Frame } from '../main/net/native/nativeWire';
import { compactJsonSerializer } from '../main/net/v1/serialization';
import { Channel } from '../shared/net/channel';
import type { FirstSend, TracedDatagram } from './lossFloor';

type Hooked = Record<
  'transmit' | 'receiveDatagram',
  (this: NativeConnection, d: Uint8Array, ...rest: unknown[]) => unknown
>;

/** The packet number of a native datagram (bytes 9–12, big-endian). */
const packetNumber = (d: Uint8Array) => ((d[9]! << 24) | (d[10]! << 16) | (d[11]! << 8) | d[12]!) >>> 0;

/**
 * Records every native datagram both ends of one connection send and receive (direction 0: from `outbound`'s side),
 * and the datagram each reliable message `{ t }` first rode, by wrapping NativeConnection's transmit and receive for
 * as long as it is on (the shipped code carries no tracing). For the loss floor (see lossFloor.ts).
 */
export function traceDatagrams(outbound: object) {
  const proto = NativeConnection.prototype as unknown as Hooked;
  const { transmit, receiveDatagram } = proto;
  const directions: [TracedDatagram[], TracedDatagram[]] = [[], []];
  const byNumber: [Map<number, number>, Map<number, number>] = [new Map(), new Map()];
  const messages: FirstSend[] = [];
  const seen = new Set<string>();
  proto.transmit = function (d) {
    const direction = this === outbound ? 0 : 1;
    const index = directions[direction].push({ sent: performance.now() }) - 1;
    byNumber[direction].set(packetNumber(d), index);
    for (const frame of parseNativePacket(new Uint8Array(d)).frames) {
      if (frame.kind !== Frame.MESSAGE || frame.channel === Channel.UNRELIABLE) continue;
      const key = `${direction}:${frame.channel}:${frame.seq}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const t = (compactJsonSerializer.deserialize(frame.body).payload as { t?: number }).t;
      if (typeof t === 'number')
        messages.push({ direction, datagram: index, at: t, ordered: frame.channel === Channel.RELIABLE_ORDERED });
    }
    return transmit.call(this, d);
  };
  proto.receiveDatagram = function (d, ...rest) {
    const direction = this === outbound ? 1 : 0;
    const index = d.length > 12 ? byNumber[direction].get(packetNumber(d)) : undefined;
    const datagram = index === undefined ? undefined : directions[direction][index];
    if (datagram && datagram.arrived === undefined) datagram.arrived = performance.now();
    return receiveDatagram.call(this, d, ...rest);
  };
  return {
    directions,
    messages,
    stop() {
      proto.transmit = transmit;
      proto.receiveDatagram = receiveDatagram;
    },
  };
}
