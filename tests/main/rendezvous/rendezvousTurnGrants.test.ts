import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../main/base/logger';
import { createRendezvousService, type RendezvousServiceOptions } from '../../../main/rendezvous/rendezvousService';
import { ManualScheduler } from '../../support/manualScheduler';
import { connectPeer, pakeOf, sealedOf, type FakePeer } from './fakePeers';

const TURN = { urls: ['turn:127.0.0.1:3478'], secret: 's3cret' };

function setup(extra: Partial<RendezvousServiceOptions> = {}) {
  const scheduler = new ManualScheduler();
  const service = createRendezvousService({
    scheduler,
    logger: silentLogger,
    wallClock: () => 1_700_000_000_000,
    turn: TURN,
    ...extra,
  });
  return { scheduler, service };
}

type Service = ReturnType<typeof setup>['service'];

function register(service: Service, address: string) {
  const host = connectPeer(service, address);
  host.say({ kind: 'register' });
  const roomId = host.ofKind('registered')[0]?.roomId;
  if (roomId === undefined) throw new Error(`not registered: ${JSON.stringify(host.sent)}`);
  return { host, roomId };
}

/** A guest from `address` joins, is answered and confirms; the join's id. */
function confirmedJoin(service: Service, host: FakePeer, roomId: string, address: string) {
  const guest = connectPeer(service, address);
  guest.say({ kind: 'join', roomId, pake: pakeOf('G') });
  const joinId = host.ofKind('join-request').at(-1)!.joinId;
  host.say({ kind: 'answer', joinId, pake: pakeOf('H') });
  guest.say({ kind: 'confirm', joinId, pake: pakeOf('T') });
  return { guest, joinId };
}

const credentialsIn = (peer: FakePeer) => JSON.stringify(peer.sent).includes('password');

describe('rendezvous TURN grants', () => {
  it('go to no registration (nor again after unregister/register), no bare connection, and no guest the host has not accepted', () => {
    const { service } = setup();
    const { host, roomId } = register(service, '10.0.0.1');
    host.say({ kind: 'unregister' });
    host.say({ kind: 'register' });
    expect(host.ofKind('registered')).toHaveLength(2);
    expect(roomId).not.toBe(host.ofKind('registered')[1]!.roomId);
    const guest = connectPeer(service, '10.0.0.2');
    guest.say({ kind: 'join', roomId: host.ofKind('registered')[1]!.roomId, pake: pakeOf('G') });
    const joinId = host.ofKind('join-request')[0]!.joinId;
    host.say({ kind: 'answer', joinId, pake: pakeOf('H') });
    // Answered: the guest may now test one guess of the code, and holds no relay for it.
    expect(guest.ofKind('answer')).toEqual([{ kind: 'answer', joinId, pake: pakeOf('H') }]);
    guest.say({ kind: 'confirm', joinId, pake: pakeOf('T') });
    expect(host.ofKind('confirm')).toEqual([{ kind: 'confirm', joinId, pake: pakeOf('T') }]);
    // The host found the confirmation wrong (a guess): the join ends, and nobody got credentials.
    host.say({ kind: 'reject', joinId, reason: 'Wrong code: check it with the host.' });
    expect(guest.last()).toMatchObject({ kind: 'error', code: 'rejected', joinId });
    expect(credentialsIn(guest)).toBe(false);
    expect(credentialsIn(host)).toBe(false);
    expect(credentialsIn(connectPeer(service, '10.0.0.3'))).toBe(false);
  });

  it('go to the host and the guest of a join the host accepted after the confirmation, once, for that join only', () => {
    const { service } = setup();
    const { host, roomId } = register(service, '10.0.0.1');
    const guest = connectPeer(service, '10.0.0.2');
    guest.say({ kind: 'join', roomId, pake: pakeOf('G') });
    const joinId = host.ofKind('join-request')[0]!.joinId;
    host.say({ kind: 'answer', joinId, pake: pakeOf('H') });
    // Before the guest's confirmation nothing is proved: no grant, and the accept counts against the host.
    host.say({ kind: 'accept', joinId });
    expect(host.last()).toMatchObject({ kind: 'error', code: 'not-allowed', joinId });
    // Nor signalling, either way, before the accept.
    guest.say({ kind: 'confirm', joinId, pake: pakeOf('T') });
    host.say({ kind: 'signal', joinId, sealed: sealedOf('H') });
    expect(host.last()).toMatchObject({ kind: 'error', code: 'not-allowed', joinId });
    guest.say({ kind: 'signal', joinId, sealed: sealedOf('G') });
    expect(guest.last()).toMatchObject({ kind: 'error', code: 'not-allowed', joinId });
    expect(guest.ofKind('signal')).toEqual([]);
    expect(host.ofKind('signal')).toEqual([]);
    expect(guest.ofKind('turn')).toEqual([]);
    host.say({ kind: 'accept', joinId });
    // One grant for each side's ICE session of this join, each its own credentials.
    const [granted] = host.ofKind('turn');
    expect(granted?.joinId).toBe(joinId);
    expect(granted?.turn?.urls).toEqual(TURN.urls);
    expect(granted?.turn?.expiresAt).toBe(1_700_003_600);
    const [guestGrant] = guest.ofKind('turn');
    expect(guestGrant?.joinId).toBe(joinId);
    expect(guestGrant?.turn?.urls).toEqual(TURN.urls);
    expect(guestGrant?.turn?.username).not.toBe(granted?.turn?.username);
    host.say({ kind: 'accept', joinId });
    expect(host.ofKind('turn')).toHaveLength(1);
    expect(guest.ofKind('turn')).toHaveLength(1);
    host.say({ kind: 'signal', joinId, sealed: sealedOf('H') });
    guest.say({ kind: 'signal', joinId, sealed: sealedOf('G') });
    expect(guest.ofKind('signal')).toEqual([{ kind: 'signal', joinId, sealed: sealedOf('H') }]);
    expect(host.ofKind('signal')).toEqual([{ kind: 'signal', joinId, sealed: sealedOf('G') }]);
  });

  it('say null past the caps per guest address (an IPv6 /64 is one) and prefix, and per host address, and refill with time', () => {
    const { service, scheduler } = setup({
      limits: {
        turnGrantsPerAddress: { burst: 2, perSecond: 2 / 3600 },
        turnGrantsPerPrefix: { burst: 3, perSecond: 3 / 3600 },
        turnGrantsPerHostAddress: { burst: 2, perSecond: 2 / 3600 },
        maxPendingJoinsPerAddressPerRoom: 8,
        maxUnprovenJoinsPerAddressPerRoom: 8,
      },
    });
    // One party registering its own room and joining it from its own /64: two grants, then none.
    const { host, roomId } = register(service, '2001:db8:1:2::1');
    const grants = () => host.ofKind('turn').map((t) => t.turn !== null);
    for (const address of ['2001:db8:1:2::10', '2001:db8:1:2::11', '2001:db8:1:2:ffff::12']) {
      const { joinId } = confirmedJoin(service, host, roomId, address);
      host.say({ kind: 'accept', joinId });
    }
    expect(grants()).toEqual([true, true, false]);
    // Guests elsewhere do not help a host over its own address's cap (here as low as a guest's).
    const far = confirmedJoin(service, host, roomId, '198.51.100.9');
    host.say({ kind: 'accept', joinId: far.joinId });
    expect(grants().at(-1)).toBe(false);

    // Per /24: four guests of one /24, each joining another host, get three grants between them; each host, under
    // its own cap, gets its own.
    const hosts = ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4'].map((a) => register(service, a));
    const perGuest = hosts.map(({ host: h, roomId: id }, i) => {
      const { guest, joinId } = confirmedJoin(service, h, id, `192.0.2.${i + 1}`);
      h.say({ kind: 'accept', joinId });
      expect(h.ofKind('turn')[0]?.turn).not.toBeNull();
      return guest.ofKind('turn')[0]?.turn !== null;
    });
    expect(perGuest).toEqual([true, true, true, false]);
    // An hour later the first host's address has its grants back.
    scheduler.advance(3_600_000);
    const again = confirmedJoin(service, host, roomId, '198.51.100.10');
    host.say({ kind: 'accept', joinId: again.joinId });
    expect(grants().at(-1)).toBe(true);
  });
});
