import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../main/base/logger';
import { createRendezvousService, type RendezvousServiceOptions } from '../../../main/rendezvous/rendezvousService';
import { RendezvousErrorCode } from '../../../shared/rendezvous';
import { ManualScheduler } from '../../support/manualScheduler';
import { connectPeer, pakeOf, type FakePeer } from './fakePeers';

function setup(limits: RendezvousServiceOptions['limits'] = {}) {
  const scheduler = new ManualScheduler();
  const service = createRendezvousService({
    scheduler,
    logger: silentLogger,
    wallClock: () => 1_700_000_000_000,
    limits,
  });
  return { scheduler, service };
}
type Service = ReturnType<typeof setup>['service'];

const registered = (peer: FakePeer) => peer.ofKind('registered').at(-1);
function register(service: Service, address: string) {
  const host = connectPeer(service, address);
  host.say({ kind: 'register' });
  return host;
}

describe('rendezvous limits by address and prefix', () => {
  it('count one IPv6 /64 as one address for connections', () => {
    const { service } = setup({ maxConnectionsPerAddress: 4 });
    const conns = Array.from({ length: 5 }, (_, i) => connectPeer(service, `2001:db8:7:9::${i + 1}`));
    expect(conns.map((c) => c.session !== null)).toEqual([true, true, true, true, false]);
    // Another /64 of the same /56 is another address.
    expect(connectPeer(service, '2001:db8:7:a::1').session).not.toBeNull();
  });

  it('cap rooms per address and per prefix (IPv4 /24, IPv6 /56); elsewhere still registers', () => {
    const { service } = setup({ maxRoomsPerAddress: 2, maxRoomsPerPrefix: 3 });
    const from = (address: string) => registered(register(service, address)) !== undefined;
    expect([from('198.51.100.1'), from('198.51.100.1'), from('198.51.100.1')]).toEqual([true, true, false]);
    const refused = register(service, '198.51.100.1');
    expect(refused.last()).toMatchObject({ code: RendezvousErrorCode.RATE_LIMITED, message: /this address/ });
    // The /24 has room for one more, from a neighbour; then the network is full.
    expect([from('198.51.100.2'), from('198.51.100.3')]).toEqual([true, false]);
    // One /64 rotating addresses is one address; its /56 is the prefix.
    const v6 = [
      '2001:db8:1:100::1',
      '2001:db8:1:100::2',
      '2001:db8:1:100::3',
      '2001:db8:1:1ff::1',
      '2001:db8:1:1fe::1',
    ];
    expect(v6.map(from)).toEqual([true, true, false, true, false]);
    expect(from('192.0.2.1')).toBe(true);
    expect(service.stats().rooms).toBe(7);
  });

  it('let an owner keep its room: re-registering a held room is never refused by the caps', () => {
    const { service } = setup({ maxRoomsPerAddress: 1, maxRoomsPerPrefix: 1 });
    const first = register(service, '198.51.100.1');
    const room = registered(first)!;
    first.session?.closed();
    // Its neighbour cannot take a new room meanwhile (the /24 holds one, in its grace period)...
    expect(registered(register(service, '198.51.100.2'))).toBeUndefined();
    // ...but the owner, back from that neighbour's address, gets its room again.
    const back = connectPeer(service, '198.51.100.2');
    back.say({ kind: 'register', room: { roomId: room.roomId, roomSecret: room.roomSecret } });
    expect(registered(back)?.roomId).toBe(room.roomId);
    expect(service.stats().rooms).toBe(1);
  });

  it('cap the joins of one room answered and not yet accepted, whatever addresses they come from: a newer one ends the oldest', () => {
    const { service } = setup({ maxUnprovenJoinsPerRoom: 3 });
    const host = register(service, '203.0.113.1');
    const roomId = registered(host)!.roomId;
    const join = (i: number) => {
      const guest = connectPeer(service, `192.0.2.${i}`);
      guest.say({ kind: 'join', roomId, pake: pakeOf() });
      const request = host.ofKind('join-request').at(-1);
      if (guest.last()?.kind === 'join-pending')
        host.say({ kind: 'answer', joinId: request!.joinId, pake: pakeOf('H') });
      return guest;
    };
    // Three answered joins held open and never confirmed (squatters from three addresses)...
    const guests = [1, 2, 3].map(join);
    expect(guests.map((g) => g.last()?.kind)).toEqual(['answer', 'answer', 'answer']);
    // ...do not keep a fourth out: it is answered, and the oldest held one is ended.
    const fourth = join(4);
    expect(fourth.last()?.kind).toBe('answer');
    expect(guests[0]!.last()).toMatchObject({ kind: 'error', code: RendezvousErrorCode.TIMEOUT });
    expect(guests.slice(1).map((g) => g.last()?.kind)).toEqual(['answer', 'answer']);
    expect(service.stats().joins).toBe(3);
  });

  it("count a host's replies to an ended or unknown join against its rate (replies to open joins stay free)", () => {
    const { service } = setup({ messageRate: { burst: 5, perSecond: 0 } });
    const host = register(service, '203.0.113.1');
    const roomId = registered(host)!.roomId;
    const guest = connectPeer(service, '192.0.2.1');
    guest.say({ kind: 'join', roomId, pake: pakeOf() });
    const joinId = host.ofKind('join-request')[0]!.joinId;
    guest.session?.closed();
    // The guest is gone: each late reply costs the host (the register above spent one of its five).
    for (let i = 0; i < 6; i++) host.say({ kind: 'answer', joinId, pake: pakeOf('H') });
    expect(host.ofKind('error').map((e) => e.code)).toEqual([RendezvousErrorCode.RATE_LIMITED]);
    expect(host.closedWith).toBeUndefined();
  });
});
