import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryNetwork, type MemoryNetwork } from '../../../main/net/index';
import { LobbyGuest } from '../../../main/lobby/lobbyGuest';
import { LobbyJoinError } from '../../../main/lobby/lobbyErrors';
import type { LobbyEnd } from '../../../main/lobby/lobbyGuest';
import { loopbackHost, type Cleanups } from '../../support/loopbackRoom';
import { waitFor } from '../../support/waitFor';
import { PlayerPath } from '../../../shared/lobby/lobbyState';

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const HOST = '10.9.0.1';
const GUEST = '10.9.0.20';
// Short transport timeouts so a cut is noticed within a second; the grace is what the test is about.
const FAST = { timeout: 1, heartbeatInterval: 0.2 };

/**
 * A room on a memory network whose guest link the test can cut (every datagram to or from the guest dropped);
 * `internet`: the host takes every guest for one that came over an internet path (as its reach would say).
 */
async function room(seatGraceSec: number, internet = false) {
  const network: MemoryNetwork = createMemoryNetwork({ defaultAddress: GUEST });
  let cut = false;
  network.drop = (_d, from, to) => cut && (from.address === GUEST || to.address === GUEST);
  const host = await loopbackHost(cleanups, {
    bindAddress: HOST,
    advertiseAddress: HOST,
    seatGraceSec,
    transport: { openSocket: network.openSocket, ...FAST },
    ...(internet ? { pathOf: () => PlayerPath.DIRECT } : {}),
  });
  const join = async (name: string, extra: { resume?: { token: string; key?: string }; from?: string } = {}) => {
    const { from = '0.0.0.0', ...rest } = extra;
    const guest = await LobbyGuest.join({
      host: HOST,
      port: host.port,
      playerName: name,
      colour: '#3ddc97',
      timeout: 2,
      transport: { openSocket: (o) => network.openSocket({ ...o, host: from }), ...FAST },
      ...rest,
    });
    cleanups.push(() => guest.leave());
    return guest;
  };
  return {
    host,
    join,
    cut: (on: boolean) => {
      cut = on;
    },
  };
}

describe('a LAN guest whose link drops for a while', () => {
  it('comes back to its seat by itself: same id, name, colour and ready state; the host saw it away meanwhile', async () => {
    const { host, join, cut } = await room(5);
    const guest = await join('Gus');
    guest.setReady(true);
    await waitFor(() => host.state.players.some((p) => p.id === guest.you && p.ready), 3000, 'ready');
    const before = host.state.players.find((p) => p.id === guest.you)!;
    const cutAt = Date.now();
    cut(true);
    await waitFor(() => host.state.players.some((p) => p.awayUntil !== undefined), 5000, 'the host holding the seat');
    const away = host.state.players.find((p) => p.id === guest.you)!;
    // "reconnecting…" for at most the grace, counted from when the host noticed.
    expect(away.awayUntil! - Date.now()).toBeGreaterThan(0);
    expect(away.awayUntil! - Date.now()).toBeLessThanOrEqual(5000);
    await waitFor(() => guest.reconnecting, 5000, 'the guest noticing the cut');
    expect(() => guest.chat('anyone?')).toThrow(/Reconnecting to the host… Your message was not sent/);
    await new Promise((r) => setTimeout(r, 1500));
    cut(false);
    await waitFor(() => !guest.reconnecting, 5000, 'the guest back in its seat');
    const gapMs = Date.now() - cutAt;
    console.log(`[seat resume] link cut ~1.5 s + detection: back after ${gapMs} ms`);
    const after = host.state.players.find((p) => p.id === guest.you)!;
    expect(after).toMatchObject({ id: before.id, name: 'Gus', colour: before.colour, ready: true });
    expect(after.awayUntil).toBeUndefined();
    expect(guest.endReason).toBeUndefined();
    // The link works again: chat from the guest arrives, and reaches the guest's own state.
    guest.chat('back');
    await waitFor(() => guest.state.chat.some((l) => l.text === 'back' && l.from === guest.you), 3000, 'chat');
    expect(host.state.players.filter((p) => !p.host)).toHaveLength(1);
  }, 20_000);

  it('is removed when the grace is over, and told why when it gives up', async () => {
    const { host, join, cut } = await room(2);
    const guest = await join('Ida');
    const ended = new Promise<LobbyEnd>((resolve) => guest.onEnd(resolve));
    cut(true);
    await waitFor(() => host.state.players.length === 1, 8000, 'the seat given up');
    const end = await ended;
    expect(end.code).toBe('host-gone');
    expect(end.message).toBe('Lost contact with the host for 2 s: your seat was given up.');
  }, 20_000);

  it('is told its seat is gone when it comes back after the grace', async () => {
    const { host, join, cut } = await room(1);
    const guest = await join('Ode');
    const { resumeToken: token, resumeKey: key } = guest as unknown as { resumeToken: string; resumeKey: string };
    cut(true);
    await waitFor(() => host.state.players.length === 1, 8000, 'the seat given up');
    cut(false);
    const late = join('Ode', { resume: { token, key } });
    await expect(late).rejects.toBeInstanceOf(LobbyJoinError);
    await expect(late).rejects.toMatchObject({ code: 'seat-gone', message: expect.stringMatching(/away longer/) });
  }, 20_000);

  it('refuses a forged token, a garbage one and the real token without its key (a sniffer), admitting nobody', async () => {
    const { host, join } = await room(30);
    const owner = await join('Gus');
    const token = (owner as unknown as { resumeToken: string }).resumeToken;
    const forged = `${token.slice(0, 40)}${token.slice(40).split('').reverse().join('')}`;
    await expect(join('Mallory', { resume: { token: forged } })).rejects.toMatchObject({
      code: 'seat-gone',
      message: 'The room did not recognise you: join it again.',
    });
    await expect(join('Mallory', { resume: { token: 'x'.repeat(63) } })).rejects.toMatchObject({ code: 'seat-gone' });
    await expect(join('Mallory', { resume: { token } })).rejects.toMatchObject({
      code: 'seat-gone',
      message: 'The room did not recognise you: join it again.',
    });
    expect(host.state.players.map((p) => p.name)).toEqual(['Hana', 'Gus']);
    expect(host.stats().rejected['seat-gone']).toBe(3);
  }, 20_000);

  it('lets the host remove a guest whose seat waits, at once', async () => {
    const { host, join, cut } = await room(30);
    const guest = await join('Gus');
    cut(true);
    await waitFor(() => host.state.players.some((p) => p.awayUntil !== undefined), 5000, 'held');
    expect(host.kick(guest.you)).toBe(true);
    expect(host.state.players.map((p) => p.name)).toEqual(['Hana']);
    expect(host.kick(guest.you)).toBe(false);
  }, 20_000);

  it('binds a LAN guest’s token to its address, an internet guest’s to the internet (its address changes by nature)', async () => {
    const seatOf = (guest: LobbyGuest) => {
      const { resumeToken: token, resumeKey: key } = guest as unknown as { resumeToken: string; resumeKey: string };
      return { token, key };
    };
    const lan = await room(30);
    const gus = await lan.join('Gus');
    lan.cut(true);
    await waitFor(() => lan.host.state.players.some((p) => p.awayUntil !== undefined), 5000, 'Gus held');
    await expect(lan.join('Gus', { resume: seatOf(gus), from: '10.9.0.66' })).rejects.toMatchObject({
      code: 'seat-gone',
      message: expect.stringMatching(/another address/),
    });

    // Over the internet the mux labels a guest by its ICE origin: a rebound router or another relay is another label.
    const net = await room(30, true);
    const ida = await net.join('Ida');
    const before = net.host.state.players.find((p) => p.id === ida.you)!;
    net.cut(true);
    await waitFor(() => net.host.state.players.some((p) => p.awayUntil !== undefined), 5000, 'Ida held');
    const back = await net.join('Ida', { resume: seatOf(ida), from: '10.9.0.77' });
    expect(back.you).toBe(ida.you);
    expect(net.host.state.players.find((p) => p.id === ida.you)).toMatchObject({ name: 'Ida', colour: before.colour });
    expect(net.host.state.players.find((p) => p.id === ida.you)?.awayUntil).toBeUndefined();
  }, 20_000);
});
