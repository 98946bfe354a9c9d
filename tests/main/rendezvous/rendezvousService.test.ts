import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../main/base/logger';
import { createRendezvousService, type RendezvousServiceOptions } from '../../../main/rendezvous/rendezvousService';
import { RENDEZVOUS_LIMITS, RendezvousErrorCode } from '../../../shared/rendezvous';
import { ManualScheduler } from '../../support/manualScheduler';
import { connectPeer, pakeOf, sealedOf } from './fakePeers';

function setup(extra: Partial<RendezvousServiceOptions> = {}) {
  const scheduler = new ManualScheduler();
  const service = createRendezvousService({
    scheduler,
    logger: silentLogger,
    wallClock: () => 1_700_000_000_000,
    ...extra,
  });
  return { scheduler, service };
}

function registeredHost(service: ReturnType<typeof setup>['service'], address = '10.0.0.1') {
  const host = connectPeer(service, address);
  host.say({ kind: 'register' });
  const reg = host.ofKind('registered')[0];
  if (!reg) throw new Error(`not registered: ${JSON.stringify(host.sent)}`);
  return { host, roomId: reg.roomId, roomSecret: reg.roomSecret };
}

describe('rendezvous service', () => {
  it('names the relay in the welcome (for STUN) without credentials', () => {
    const { service } = setup({ turn: { urls: ['turn:127.0.0.1:3478'], secret: 's3cret' } });
    expect(connectPeer(service, '10.0.0.9').ofKind('welcome')).toEqual([
      { kind: 'welcome', relays: ['turn:127.0.0.1:3478'] },
    ]);
    expect(connectPeer(setup().service).ofKind('welcome')).toEqual([{ kind: 'welcome', relays: [] }]);
  });

  it('registers a room, forwards the join, the answer, the confirmation and signals, in that order only', () => {
    const { service } = setup();
    const { host, roomId } = registeredHost(service);
    expect(roomId).toMatch(/^[0-9A-HJKMNP-TV-Z]{6}$/);
    const guest = connectPeer(service, '10.0.0.2');
    guest.say({ kind: 'join', roomId, pake: pakeOf('G') });
    const request = host.ofKind('join-request')[0];
    expect(request?.pake).toEqual(pakeOf('G'));
    const joinId = request?.joinId ?? '';
    expect(guest.ofKind('join-pending')).toEqual([{ kind: 'join-pending', joinId }]);
    // Nothing but the exchange before the confirmation: no signal either way, no early confirmation.
    guest.say({ kind: 'confirm', joinId, pake: pakeOf('T') });
    host.say({ kind: 'signal', joinId, sealed: sealedOf('H') });
    expect(host.ofKind('confirm')).toEqual([]);
    expect(guest.ofKind('signal')).toEqual([]);
    host.say({ kind: 'answer', joinId, pake: pakeOf('H') });
    expect(guest.ofKind('answer')).toEqual([{ kind: 'answer', joinId, pake: pakeOf('H') }]);
    guest.say({ kind: 'confirm', joinId, pake: pakeOf('T') });
    expect(host.ofKind('confirm')).toEqual([{ kind: 'confirm', joinId, pake: pakeOf('T') }]);
    host.say({ kind: 'accept', joinId });
    expect(host.ofKind('turn')).toEqual([{ kind: 'turn', joinId, turn: null }]);
    expect(guest.ofKind('turn')).toEqual([{ kind: 'turn', joinId, turn: null }]);
    host.say({ kind: 'signal', joinId, sealed: sealedOf('H') });
    guest.say({ kind: 'signal', joinId, sealed: sealedOf('g') });
    expect(guest.ofKind('signal')).toEqual([{ kind: 'signal', joinId, sealed: sealedOf('H') }]);
    expect(host.ofKind('signal')).toEqual([{ kind: 'signal', joinId, sealed: sealedOf('g') }]);
    guest.say({ kind: 'confirm', joinId, pake: pakeOf('T') });
    expect(host.ofKind('confirm')).toHaveLength(1);
    expect(service.stats()).toEqual({ rooms: 1, joins: 1, connections: 2 });
  });

  it('refuses an unknown room, a third party trickling into a join, a second answer, and a host that joins', () => {
    const { service } = setup();
    const { host, roomId } = registeredHost(service);
    const guest = connectPeer(service, '10.0.0.2');
    guest.say({ kind: 'join', roomId: 'ZZZZZZ', pake: pakeOf() });
    expect(guest.last()).toMatchObject({ kind: 'error', code: RendezvousErrorCode.ROOM_UNKNOWN });
    guest.say({ kind: 'join', roomId, pake: pakeOf() });
    const joinId = host.ofKind('join-request')[0]?.joinId ?? '';
    const stranger = connectPeer(service, '10.0.0.3');
    stranger.say({ kind: 'signal', joinId, sealed: sealedOf('E') });
    stranger.say({ kind: 'answer', joinId, pake: pakeOf('E') });
    expect(stranger.ofKind('error').map((e) => e.code)).toEqual(['not-allowed', 'not-allowed']);
    expect(host.ofKind('signal')).toEqual([]);
    expect(guest.ofKind('answer')).toEqual([]);
    guest.say({ kind: 'answer', joinId, pake: pakeOf('E') });
    expect(guest.last()).toMatchObject({ kind: 'error', code: 'not-allowed' });
    host.say({ kind: 'answer', joinId, pake: pakeOf('H') });
    host.say({ kind: 'answer', joinId, pake: pakeOf('X') });
    expect(guest.ofKind('answer')).toHaveLength(1);
    host.say({ kind: 'join', roomId, pake: pakeOf() });
    expect(host.last()).toMatchObject({ kind: 'error', code: 'not-allowed' });
  });

  it('forwards a rejection with its reason and forgets the join', () => {
    const { service } = setup();
    const { host, roomId } = registeredHost(service);
    const guest = connectPeer(service, '10.0.0.2');
    guest.say({ kind: 'join', roomId, pake: pakeOf() });
    const joinId = host.ofKind('join-request')[0]?.joinId ?? '';
    host.say({ kind: 'reject', joinId, reason: 'The room is full' });
    expect(guest.last()).toEqual({ kind: 'error', code: 'rejected', message: 'The room is full', joinId });
    expect(service.stats().joins).toBe(0);
  });

  it('keeps a room through the host grace period, lets the same secret re-register it, and refuses another secret', () => {
    const { service, scheduler } = setup({ limits: { hostGraceMs: 60_000, idleMs: 3_600_000 } });
    const { host, roomId, roomSecret } = registeredHost(service);
    const guest = connectPeer(service, '10.0.0.2');
    guest.say({ kind: 'join', roomId, pake: pakeOf() });
    host.session?.closed();
    expect(guest.last()).toMatchObject({ kind: 'error', code: RendezvousErrorCode.HOST_AWAY });
    guest.say({ kind: 'join', roomId, pake: pakeOf() });
    expect(guest.last()).toMatchObject({ kind: 'error', code: RendezvousErrorCode.HOST_AWAY });
    scheduler.advance(59_000);
    const thief = connectPeer(service, '10.0.0.9');
    thief.say({ kind: 'register', room: { roomId, roomSecret: 'x'.repeat(32) } });
    expect(thief.last()).toMatchObject({ message: 'that is not the room’s secret' });
    expect(thief.last()).toMatchObject({ kind: 'error', code: RendezvousErrorCode.ROOM_TAKEN });
    const back = connectPeer(service, '10.0.0.1');
    back.say({ kind: 'register', room: { roomId, roomSecret } });
    expect(back.last()).toMatchObject({ kind: 'registered', roomId, roomSecret });
    scheduler.advance(10_000);
    guest.say({ kind: 'join', roomId, pake: pakeOf() });
    expect(back.ofKind('join-request')).toHaveLength(1);
  });

  it('expires a room after the grace, and re-registers it (as after a restart) under its secret', () => {
    const { service, scheduler } = setup({ limits: { hostGraceMs: 60_000 } });
    const { host, roomId, roomSecret } = registeredHost(service);
    host.session?.closed();
    scheduler.advance(61_000);
    expect(service.stats().rooms).toBe(0);
    const guest = connectPeer(service, '10.0.0.2');
    guest.say({ kind: 'join', roomId, pake: pakeOf() });
    expect(guest.last()).toMatchObject({ kind: 'error', code: RendezvousErrorCode.ROOM_UNKNOWN });
    const back = connectPeer(service, '10.0.0.1');
    back.say({ kind: 'register', room: { roomId, roomSecret } });
    expect(back.last()).toMatchObject({ kind: 'registered', roomId });
  });

  it('ends a room at its hard cap even with its host connected, and refuses it again afterwards', () => {
    const { service, scheduler } = setup({ limits: { roomMaxAgeMs: 3_600_000 } });
    const { host, roomId, roomSecret } = registeredHost(service);
    expect(host.ofKind('registered')[0]?.expiresAt).toBe(1_700_000_000_000 + 3_600_000);
    scheduler.advance(3_600_000);
    expect(host.ofKind('error')[0]).toMatchObject({
      code: RendezvousErrorCode.ROOM_UNKNOWN,
      message: 'the room expired',
    });
    const again = connectPeer(service, '10.0.0.1');
    again.say({ kind: 'register', room: { roomId, roomSecret } });
    expect(again.last()).toMatchObject({
      kind: 'error',
      code: RendezvousErrorCode.ROOM_UNKNOWN,
      message: 'the room expired',
    });
  });

  it('times out an unanswered join and frees its place', () => {
    const { service, scheduler } = setup({
      limits: { joinTtlMs: 30_000, maxPendingJoinsPerRoom: 1, idleMs: 3_600_000 },
    });
    const { roomId } = registeredHost(service);
    const guest = connectPeer(service, '10.0.0.2');
    guest.say({ kind: 'join', roomId, pake: pakeOf() });
    const other = connectPeer(service, '10.0.0.3');
    other.say({ kind: 'join', roomId, pake: pakeOf() });
    expect(other.last()).toMatchObject({ kind: 'error', code: RendezvousErrorCode.ROOM_FULL });
    scheduler.advance(31_000);
    expect(guest.last()).toMatchObject({ kind: 'error', code: RendezvousErrorCode.TIMEOUT });
    other.say({ kind: 'join', roomId, pake: pakeOf() });
    expect(other.last()).toMatchObject({ kind: 'join-pending' });
  });

  it('holds at most maxRooms rooms', () => {
    const { service } = setup({ limits: { maxRooms: 2 } });
    registeredHost(service, '10.0.0.1');
    registeredHost(service, '10.0.0.2');
    const third = connectPeer(service, '10.0.0.3');
    third.say({ kind: 'register' });
    expect(third.last()).toMatchObject({ kind: 'error', code: RendezvousErrorCode.SERVICE_FULL });
  });

  it('answers malformed, oversized and wrong-version messages with an error, and closes after too many', () => {
    const { service } = setup({ limits: { maxStrikes: 3 } });
    const peer = connectPeer(service);
    peer.session?.receive('not json');
    peer.session?.receive('{"v":9,"kind":"ping"}');
    expect(peer.ofKind('error').map((e) => e.code)).toEqual(['malformed', 'unsupported-version']);
    expect(peer.closedWith).toBeUndefined();
    peer.session?.receive('x'.repeat(RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES + 1));
    expect(peer.ofKind('error').at(-1)?.code).toBe('too-large');
    expect(peer.closedWith?.code).toBe(1008);
    expect(service.stats().connections).toBe(0);
  });

  it('rate-limits a flood from one source without answering every message, while another source goes on', () => {
    const { service, scheduler } = setup({ limits: { messageRate: { burst: 5, perSecond: 1 }, maxStrikes: 1000 } });
    const flooder = connectPeer(service, '10.0.0.66');
    for (let i = 0; i < 200; i++) flooder.say({ kind: 'ping' });
    expect(flooder.ofKind('pong')).toHaveLength(5);
    const limited = flooder.ofKind('error').filter((e) => e.code === 'rate-limited').length;
    expect(limited).toBeGreaterThan(0);
    expect(limited).toBeLessThan(20);
    const friend = connectPeer(service, '10.0.0.7');
    friend.say({ kind: 'ping' });
    expect(friend.last()).toEqual({ kind: 'pong' });
    scheduler.advance(2000);
    flooder.say({ kind: 'ping' });
    expect(flooder.last()).toEqual({ kind: 'pong' });
  });

  it('bounds connections per source address and the rate of new ones', () => {
    const { service } = setup({ limits: { maxConnectionsPerAddress: 2, connectRate: { burst: 100, perSecond: 1 } } });
    connectPeer(service, '10.0.0.5');
    connectPeer(service, '10.0.0.5');
    const third = connectPeer(service, '10.0.0.5');
    expect(third.session).toBeNull();
    expect(third.closedWith?.code).toBe(1008);
    expect(third.sent[0]).toMatchObject({ kind: 'error', code: 'rate-limited' });
    const slow = setup({ limits: { connectRate: { burst: 2, perSecond: 0.1 } } }).service;
    connectPeer(slow, '10.0.0.6').session?.closed();
    connectPeer(slow, '10.0.0.6').session?.closed();
    expect(connectPeer(slow, '10.0.0.6').session).toBeNull();
  });

  it('bounds signals per join and side', () => {
    const { service } = setup();
    const { host, roomId } = registeredHost(service);
    const guest = connectPeer(service, '10.0.0.2');
    guest.say({ kind: 'join', roomId, pake: pakeOf() });
    const joinId = host.ofKind('join-request')[0]?.joinId ?? '';
    host.say({ kind: 'answer', joinId, pake: pakeOf('H') });
    guest.say({ kind: 'confirm', joinId, pake: pakeOf('T') });
    host.say({ kind: 'accept', joinId });
    for (let i = 0; i < RENDEZVOUS_LIMITS.MAX_SIGNALS + 3; i++)
      guest.say({ kind: 'signal', joinId, sealed: sealedOf() });
    expect(host.ofKind('signal')).toHaveLength(RENDEZVOUS_LIMITS.MAX_SIGNALS);
    expect(guest.last()).toMatchObject({ kind: 'error', code: 'too-large' });
  });

  it('unregister closes the room and tells waiting guests', () => {
    const { service } = setup();
    const { host, roomId } = registeredHost(service);
    const guest = connectPeer(service, '10.0.0.2');
    guest.say({ kind: 'join', roomId, pake: pakeOf() });
    host.say({ kind: 'unregister' });
    expect(guest.last()).toMatchObject({ kind: 'error', code: RendezvousErrorCode.ROOM_UNKNOWN });
    expect(service.stats()).toMatchObject({ rooms: 0, joins: 0 });
  });
});
