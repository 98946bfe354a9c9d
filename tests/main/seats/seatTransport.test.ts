import { describe, expect, it } from 'vitest';
import { GameMessage } from '../../../shared/game/gameProtocol';
import { seatTransport } from '../../../main/seats/seatTransport';
import type { ConnectionStats } from '../../../main/net/index';
import { RoomKit, lanPeer } from '../lobby/host/roomKit';
import { FakeHostTransport } from '../game/fakeTransports';
import { inputPayload, placing, startHost } from '../game/hostKit';

/** The fake server with the peer list a Server has. */
class FakeSeatServer extends FakeHostTransport {
  readonly peers = new Set<number>();
  override getPeers() {
    return [...this.peers].map((id) => ({ id, stats: () => ({ rtt: id / 1000 }) as unknown as ConnectionStats }));
  }
}

/** Two guests seated by the room's own step; the game reads its seat map. */
function seatedGame() {
  const room = new RoomKit({ graceMs: 30_000 });
  const server = new FakeSeatServer();
  for (const seat of [1, 2]) {
    server.peers.add(seat);
    room.join(lanPeer(seat));
  }
  const kit = startHost({
    transport: seatTransport(server, room.seatMap),
    prepare: placing({ '1': { x: 400, y: 400 }, '2': { x: 800, y: 400 } }),
  });
  const lost = (peerId: number) => room.feed({ kind: 'departed', peerId, silent: true, wallNow: 0 });
  const resume = (seat: number, peerId: number) => {
    const peer = lanPeer(peerId, `10.0.0.${seat}`);
    return room.join(peer, `P${seat}`, room.resumeOf(seat, peer));
  };
  return { room, server, kit, lost, resume };
}

describe('the game over a room’s seats', () => {
  it('keeps a player whose link went silent, and takes its inputs from its new link after the resume', () => {
    const { room, server, kit, lost, resume } = seatedGame();
    server.peers.delete(1);
    lost(1);
    kit.ticks(30);
    expect(kit.host.state.players.map((p) => p.id)).toEqual(['0', '1', '2']);
    room.advance(10_000);
    server.peers.add(9);
    resume(1, 9);
    expect(room.state.seatOf.get(9)).toBe(1);
    const x = kit.player('1').x;
    for (let seq = 100; seq < 110; seq += 1) {
      server.deliver(9, GameMessage.INPUT, inputPayload(kit.host.gameId, [seq], { moveX: 1 }));
      kit.ticks(1);
    }
    expect(kit.player('1').x).toBeGreaterThan(x);
    expect(kit.host.stats().inputs.unknownPlayer).toBe(0);
  });

  it('removes the player from the round once its seat is let go, not before', () => {
    const { room, server, kit, lost } = seatedGame();
    server.peers.delete(2);
    lost(2);
    room.advance(29_999);
    expect(kit.host.state.players.map((p) => p.id)).toEqual(['0', '1', '2']);
    room.advance(1);
    expect(kit.host.state.players.map((p) => p.id)).toEqual(['0', '1']);
  });

  it('maps RTTs and link stats to seats, and lets no unseated peer into the game', () => {
    const { room, server, kit, lost, resume } = seatedGame();
    const transport = seatTransport(server, room.seatMap);
    server.rtts.set(1, 0.02);
    server.rtts.set(7, 0.5);
    server.peers.add(7); // a peer at the door, not seated
    expect(transport.getRtt(1)).toBe(0.02);
    expect(transport.getRtt(7)).toBeUndefined();
    expect(transport.getPeers().map((p) => p.id)).toEqual([1, 2]);
    server.deliver(7, GameMessage.INPUT, inputPayload(kit.host.gameId, [1], { moveX: 1 }));
    kit.ticks(1);
    // Dropped before the game saw it: not even counted as a message.
    expect(kit.host.stats().inputs.messages).toBe(0);
    // After a resume on peer 9, seat 1's RTT is peer 9's.
    server.peers.delete(1);
    lost(1);
    server.peers.add(9);
    server.rtts.set(9, 0.03);
    resume(1, 9);
    expect(transport.getRtt(1)).toBe(0.03);
    expect(
      transport
        .getPeers()
        .map((p) => p.id)
        .sort(),
    ).toEqual([1, 2]);
  });
});
