import type { Peer, Server } from '../../net/index';

/** Waits until every peer's reliable messages are acknowledged (or its connection closed), at most `maxMs`. */
export async function delivered(peers: readonly Peer[], maxMs: number): Promise<void> {
  const until = Date.now() + maxMs;
  while (Date.now() < until && peers.some((p) => p.connection.pendingReliable > 0 && !p.connection.closed)) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Disconnects a peer once its last word (why it was refused or removed) has arrived, or after a second. */
export async function disconnectWhenDelivered(server: Server, peerId: number, reason: string): Promise<void> {
  const peer = server.getPeer(peerId);
  if (!peer) return;
  await delivered([peer], 1000);
  server.disconnect(peerId, reason);
}
