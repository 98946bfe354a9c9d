import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../../../../main/base/logger';
import { systemScheduler, type Scheduler } from '../../../../main/base/scheduler';
import { randomBytes } from 'node:crypto';
import { internetJoinAgreement } from '../../../../main/reach/internet/internetJoinAgreement';
import { answerGuestAgreement, startGuestAgreement, type HostAgreement } from '../../../../main/net/secure';
import { openRendezvousGuest } from '../../../../main/reach/internet/rendezvousGuest';
import {
  startRendezvousHost,
  type RendezvousHost,
  type RendezvousHostStatus,
} from '../../../../main/reach/internet/rendezvousHost';
import { startRendezvousServer, type RendezvousServer } from '../../../../main/rendezvous/rendezvousServer';
import type { RendezvousServiceOptions } from '../../../../main/rendezvous/rendezvousService';
import {
  RENDEZVOUS_LIMITS,
  RENDEZVOUS_VERSION,
  RendezvousErrorCode,
  decodeInternetCode,
  encodeInternetCode,
} from '../../../../shared/rendezvous';
import { ManualScheduler } from '../../../support/manualScheduler';
import { waitFor } from '../../../support/waitFor';
import { pakeOf } from '../../rendezvous/fakePeers';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(extra: Partial<RendezvousServiceOptions> & { port?: number } = {}): Promise<RendezvousServer> {
  const started = await startRendezvousServer({
    host: '127.0.0.1',
    port: 0,
    scheduler: systemScheduler,
    logger: silentLogger,
    turn: { urls: ['turn:127.0.0.1:3478'], secret: 'lab-secret' },
    // One key for every service the test starts: a restart keeps the owners (as --service-key-file does).
    serviceKey: new Uint8Array(32).fill(1),
    ...extra,
  });
  cleanups.push(() => started.close());
  return started;
}

async function host(url: string, extra: { scheduler?: Scheduler; room?: { roomId: string; roomSecret: string } } = {}) {
  const started = await startRendezvousHost({
    url,
    scheduler: extra.scheduler ?? systemScheduler,
    logger: silentLogger,
    retryInitialMs: 20,
    retryMaxMs: 100,
    ...(extra.room ? { room: extra.room } : {}),
  });
  cleanups.push(() => started.close());
  return started;
}

async function guest(url: string) {
  const g = await openRendezvousGuest({ url, scheduler: systemScheduler, timeoutMs: 3000 });
  cleanups.push(() => g.close());
  return g;
}

const random = (size: number) => new Uint8Array(randomBytes(size));
const SECRET = 'K7Q2M9XD4';
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const bytesOf = (text: string) => Buffer.from(text, 'base64url');

/**
 * The host runs the real key agreement on every join (secret `secret`), accepts each confirmation that checks, and
 * answers each guest signal with it reversed; returns the guest signals it got.
 */
function answerAll(h: RendezvousHost, secret = SECRET) {
  const agreements = new Map<string, HostAgreement>();
  const confirmed: string[] = [];
  const context = internetJoinAgreement({ roomId: h.roomId, secret });
  h.onJoinRequest(({ joinId, pake }) => {
    const agreement = answerGuestAgreement(context, bytesOf(pake), random);
    agreements.set(joinId, agreement);
    h.answer(joinId, b64(agreement.answer));
  });
  h.onConfirm(({ joinId, pake }) => {
    const keys = agreements.get(joinId)?.confirm(bytesOf(pake));
    if (!keys) return h.reject(joinId, 'Wrong code');
    void h.accept(joinId);
  });
  h.onSignal(({ joinId, sealed }) => {
    confirmed.push(sealed);
    h.signal(joinId, sealed.split('').reverse().join(''));
  });
  return confirmed;
}

/** A guest's run of the agreement through `g` with the code's secret. */
async function joinWith(g: Awaited<ReturnType<typeof guest>>, roomId: string, secret = SECRET) {
  const agreement = startGuestAgreement(internetJoinAgreement({ roomId, secret }), random);
  const answered = await g.join(roomId, b64(agreement.offer));
  return { answered, agreement };
}

/** A raw WebSocket from a chosen loopback source, collecting what the service says and how it closes. */
async function rawSocket(url: string, localAddress = '127.0.0.1') {
  const ws = new WebSocket(url, { localAddress });
  const got: string[] = [];
  let closeCode: number | undefined;
  ws.on('message', (data) => got.push(String(data)));
  ws.on('close', (code) => (closeCode = code));
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  cleanups.push(() => ws.terminate());
  return { ws, got, closeCode: () => closeCode };
}

describe('rendezvous clients against the real service on loopback', () => {
  it('a guest joins by code and confirms; the host accepts it, both get a TURN grant for the join, and they signal', async () => {
    const s = await server();
    const h = await host(s.url);
    const grants: unknown[] = [];
    const accept = h.accept.bind(h);
    h.accept = (joinId) => accept(joinId).then((turn) => (grants.push(turn), turn));
    const confirmed = answerAll(h);
    const decoded = decodeInternetCode(encodeInternetCode(h.roomId, SECRET));
    if (!decoded.ok) throw new Error(decoded.reason);
    const g = await guest(s.url);
    expect(g.relays).toEqual(['turn:127.0.0.1:3478']);
    const { answered, agreement } = await joinWith(g, decoded.code.roomId, decoded.code.secret);
    expect(answered).toEqual({ joinId: expect.any(String), pake: expect.any(String) });
    const { confirm } = agreement.finish(bytesOf(answered.pake));
    // The guest's grant comes once the host accepted its confirmation, for the ICE it gathers only then.
    const turn = await g.confirm(b64(confirm), 3000);
    expect(turn).toEqual(expect.objectContaining({ urls: ['turn:127.0.0.1:3478'] }));
    const sealed = 'sealed-guest-ice-' + 'x'.repeat(40);
    g.signal(sealed);
    expect(await g.nextSignal(3000)).toBe(sealed.split('').reverse().join(''));
    expect(confirmed).toEqual([sealed]);
    expect(grants).toEqual([expect.objectContaining({ urls: ['turn:127.0.0.1:3478'] })]);
  });

  it('a guesser whose confirmation the host refuses hears "rejected" from confirm, and never gets a TURN grant', async () => {
    const s = await server();
    const h = await host(s.url);
    const signals = answerAll(h);
    const g = await guest(s.url);
    // Someone with a wrong code: it cannot finish the agreement, so it confirms with a guess.
    const { answered, agreement } = await joinWith(g, h.roomId, 'WRONGSECR');
    expect(() => agreement.finish(bytesOf(answered.pake))).toThrow(/confirmation failed/);
    await expect(g.confirm(pakeOf('guess'), 3000)).rejects.toMatchObject({ code: 'rejected', message: 'Wrong code' });
    expect(() => g.signal('s'.repeat(60))).not.toThrow();
    await expect(g.nextSignal(300)).rejects.toMatchObject({ code: expect.any(String) });
    expect(signals).toEqual([]);
  });

  it('a host (or a rendezvous in between) without the code secret fails the guest check: no confirmation sent', async () => {
    const s = await server();
    const h = await host(s.url);
    const confirmed = answerAll(h, 'WRONGSECR');
    const g = await guest(s.url);
    const { answered, agreement } = await joinWith(g, h.roomId);
    expect(() => agreement.finish(bytesOf(answered.pake))).toThrow(/confirmation failed/);
    expect(confirmed).toEqual([]);
  });

  it('says room unknown for a wrong room, rejected when the host declines, timeout when it never answers', async () => {
    const s = await server();
    const h = await host(s.url);
    const g = await guest(s.url);
    await expect(g.join('ZZZZZZ', pakeOf('G'))).rejects.toMatchObject({ code: 'room-unknown' });
    h.onJoinRequest(({ joinId }) => h.reject(joinId, 'Password required'));
    const g2 = await guest(s.url);
    await expect(g2.join(h.roomId, pakeOf('G'))).rejects.toMatchObject({
      code: 'rejected',
      message: 'Password required',
    });
    const silent = await host(s.url);
    const g3 = await guest(s.url);
    await expect(g3.join(silent.roomId, pakeOf('G'), 200)).rejects.toMatchObject({ code: 'timeout' });
  });

  it('says unreachable when nothing listens, for host and guest', async () => {
    const s = await server();
    const url = s.url;
    await s.close();
    await expect(openRendezvousGuest({ url, scheduler: systemScheduler, timeoutMs: 3000 })).rejects.toMatchObject({
      code: RendezvousErrorCode.UNREACHABLE,
    });
    await expect(startRendezvousHost({ url, scheduler: systemScheduler, logger: silentLogger })).rejects.toMatchObject({
      code: RendezvousErrorCode.UNREACHABLE,
    });
  });

  it('re-registers the same room id after the service restarts, so the code keeps working', async () => {
    const first = await server();
    const h = await host(first.url);
    answerAll(h);
    const statuses: RendezvousHostStatus['state'][] = [];
    h.onStatus((s) => statuses.push(s.state));
    const { port, url } = first;
    await first.close();
    await waitFor(() => h.status.state === 'reconnecting', 3000, 'host notices the drop');
    const second = await server({ port });
    expect(second.url).toBe(url);
    await waitFor(() => h.status.state === 'registered', 5000, 'host registers again');
    expect(second.service.stats().rooms).toBe(1);
    const g = await guest(url);
    const { answered, agreement } = await joinWith(g, h.roomId);
    expect(() => agreement.finish(bytesOf(answered.pake))).not.toThrow();
    expect(statuses[0]).toBe('reconnecting');
    expect(statuses.at(-1)).toBe('registered');
  });

  it('a host given its saved room id and secret gets the same room back', async () => {
    const s = await server();
    const h = await host(s.url);
    const room = { roomId: h.roomId, roomSecret: h.roomSecret };
    h.close();
    const again = await host(s.url, { room });
    expect(again.roomId).toBe(room.roomId);
    await expect(host(s.url, { room: { roomId: room.roomId, roomSecret: 'y'.repeat(32) } })).rejects.toMatchObject({
      code: RendezvousErrorCode.ROOM_TAKEN,
    });
  });

  it('tells the host its room expired at the hard cap, and the guest that the room is unknown', async () => {
    const clock = new ManualScheduler();
    const s = await server({ scheduler: clock, limits: { roomMaxAgeMs: 60_000 } });
    const h = await host(s.url);
    clock.advance(60_000);
    await waitFor(() => h.status.state === 'expired', 3000, 'host hears of the expiry');
    const g = await guest(s.url);
    await expect(g.join(h.roomId, pakeOf('G'))).rejects.toMatchObject({ code: 'room-unknown' });
  });

  it('refuses malformed text and binary messages, and closes on an oversized one', async () => {
    const s = await server();
    const raw = await rawSocket(s.url);
    raw.ws.send(`{"v":${RENDEZVOUS_VERSION},"kind":"nope"}`);
    raw.ws.send(Buffer.from([1, 2, 3]));
    await waitFor(() => raw.got.length === 3, 3000, 'two errors after the welcome');
    expect(raw.got.slice(1).map((t) => JSON.parse(t).code)).toEqual(['malformed', 'malformed']);
    raw.ws.send('x'.repeat(RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES + 1));
    await waitFor(() => raw.closeCode() !== undefined, 3000, 'close');
    expect(raw.closeCode()).toBe(1009);
    const g = await guest(s.url);
    // A message the service would close on is refused locally, with its own message, and the connection stays.
    await expect(g.join('ZZZZZZ', 'p'.repeat(RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES))).rejects.toMatchObject({
      code: 'too-large',
    });
    expect(s.service.stats().connections).toBe(1);
  });

  it('cuts a flood from one source address while another address is served', async () => {
    const s = await server();
    const flood = await rawSocket(s.url, '127.0.0.2');
    for (let i = 0; i < 600; i++) flood.ws.send(`{"v":${RENDEZVOUS_VERSION},"kind":"ping"}`);
    await waitFor(() => flood.closeCode() !== undefined, 5000, 'flood closed');
    expect(flood.closeCode()).toBe(1008);
    const codes = flood.got
      .map((t) => JSON.parse(t))
      .filter((m) => m.kind === 'error')
      .map((m) => m.code);
    expect(codes).toContain('rate-limited');
    expect(flood.got.length).toBeLessThan(120);
    const h = await host(s.url);
    expect(h.status.state).toBe('registered');
  });
});
