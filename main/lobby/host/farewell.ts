import type { Peer, Server } from '../../net/index';
import { sleep, type Scheduler } from '../../base/scheduler';

/** Waits until every peer's reliable messages are acknowledged (or its connection closed), at most `maxMs`. */
export async function delivered(peers: readonly Peer[], maxMs: number, clock: Scheduler): Promise<void> {
  const until = clock.now() + maxMs;
  while (clock.now() < until && peers.some((p) => p.connection.pendingReliable > 0 && !p.connection.closed)) {
    await sleep(10, clock);
  }
}

/** Disconnects a peer once its last word (why it was refused or removed) has arrived, or after a second. */
export async function disconnectWhenDelivered(
  server: Server,
  peerId: number,
  reason: string,
  clock: Scheduler,
): Promise<void> {
  const peer = server.getPeer(peerId);
  if (!peer) return;
  await delivered([peer], 1000, clock);
  server.disconnect(peerId, reason);
}
