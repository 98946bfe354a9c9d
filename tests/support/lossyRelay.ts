import { createSocket, type RemoteInfo } from 'node:dgram';
import { seededRandom } from './seededRandom';

/** Per-datagram odds of the tiny test relay. */
export interface RelayOdds {
  drop: number;
  duplicate: number;
  /** Hold a datagram back until the next one has passed (at most 10 ms). */
  reorder: number;
}

/**
 * A minimal one-client UDP relay on 127.0.0.1 that drops, duplicates and swaps datagrams in both
 * directions, seeded. The full link conditioner lives in main/conditioner; this keeps the
 * transport's own tests independent of it.
 */
export async function startLossyRelay(targetPort: number, odds: RelayOdds, seed = 1) {
  const random = seededRandom(seed);
  const front = createSocket('udp4');
  const back = createSocket('udp4');
  let client: RemoteInfo | undefined;
  let closed = false;
  const timers = new Set<NodeJS.Timeout>();
  const held: { front?: Buffer; back?: Buffer } = {};
  const forward = (dir: 'front' | 'back', data: Buffer, sendNow: (d: Buffer) => void) => {
    // Nothing leaves once the relay is closed (a held datagram's timer may still fire).
    const send = (d: Buffer) => {
      if (!closed) sendNow(d);
    };
    if (random() < odds.drop) return;
    const copies = random() < odds.duplicate ? 2 : 1;
    if (!held[dir] && random() < odds.reorder) {
      held[dir] = data;
      // Released by the next datagram, or after 10 ms if none comes (a real link does not hold forever).
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (held[dir] === data) {
          held[dir] = undefined;
          send(data);
        }
      }, 10);
      timers.add(timer);
      return;
    }
    for (let i = 0; i < copies; i++) send(data);
    const late = held[dir];
    held[dir] = undefined;
    if (late) send(late);
  };
  front.on('message', (data, from) => {
    client = from;
    forward('back', data, (d) => back.send(d, targetPort, '127.0.0.1'));
  });
  back.on('message', (data) => {
    const c = client;
    if (c) forward('front', data, (d) => front.send(d, c.port, c.address));
  });
  await Promise.all([
    new Promise<void>((r) => front.bind(0, '127.0.0.1', r)),
    new Promise<void>((r) => back.bind(0, '127.0.0.1', r)),
  ]);
  return {
    port: front.address().port,
    close: () => {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      front.close();
      back.close();
    },
  };
}
