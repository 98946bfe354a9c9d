import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLabRendezvous } from '../support/labRendezvous';
import { addSourceAddresses, cutTcp, runSwarm } from '../support/labTrustLab';
import { RoomPeer } from '../support/labRoomDriver';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';
import { decodeInternetCode } from '../../shared/rendezvous';

// A squatter against a room id, in the namespace lab with the real rendezvous run as a deployment runs it
// (`--service-key-file`): while the host's link is down, and across a restart of the service, the squatter
// (on the lab's public side, speaking the rendezvous protocol from several addresses) claims the id with
// secrets of its own; the real host comes back to the same id and a guest joins by the same code.
const skip = natLabUnavailableReason();
const RDV_PORT = 8787;

let lab: NatLab;
let keyDir = '';
let rendezvous: { child: ChildProcess; url: string };
let host: RoomPeer;
let guest: RoomPeer;
let squatters: string[] = [];

beforeAll(async () => {
  if (skip) return;
  keyDir = mkdtempSync(join(tmpdir(), 'lp-trust-key-'));
  lab = await createNatLab({
    routers: { home1: 'endpoint-independent', home2: 'endpoint-independent' },
    players: { hostp: { router: 'home1' }, guestp: { router: 'home2' }, rdv: 'public', squatter: 'public' },
  });
  rendezvous = await startLabRendezvous(lab, 'rdv', RDV_PORT, { serviceKeyFile: join(keyDir, 'service.key') });
  squatters = addSourceAddresses(lab, 'squatter', 100, 8);
  [host, guest] = await Promise.all([
    RoomPeer.start(lab, 'hostp', rendezvous.url),
    RoomPeer.start(lab, 'guestp', rendezvous.url),
  ]);
}, 120_000);

afterAll(async () => {
  host?.stop();
  guest?.stop();
  await lab?.destroy();
  if (keyDir) rmSync(keyDir, { recursive: true, force: true });
});

/** The host's room; the host views from now on. */
async function hostRoom(): Promise<{ code: string; roomId: string; from: number }> {
  const from = host.views.length;
  const hosted = await host.command('lobby.host', { reach: 'internet' });
  const code = hosted.internet!.code;
  const parsed = decodeInternetCode(code);
  if (!parsed.ok) throw new Error(parsed.reason);
  return { code, roomId: parsed.code.roomId, from };
}

/** Waits until the host's room is registered again after a `reconnecting` seen since view `from`. */
async function reregistered(from: number): Promise<number> {
  const t = performance.now();
  await host.until(
    () => host.views.slice(from).some((v) => v.internet?.status === 'reconnecting'),
    'the host reconnecting',
    30_000,
  );
  const lost = host.views.slice(from).findIndex((v) => v.internet?.status === 'reconnecting') + from;
  await host.until(
    () => host.views.slice(lost).some((v) => v.internet?.status === 'registered'),
    'the room registered again',
    90_000,
  );
  return performance.now() - t;
}

/**
 * Cuts the host's link to the service, runs `meanwhile` (with the service's URL it returns), lets the squatter
 * claim the room's id from every address, and gives the link back; then waits for the host to be registered
 * again and a guest to get in by the same code. Returns the squatter's tally.
 */
async function squatWhileCut(
  room: { code: string; roomId: string; from: number },
  what: string,
  meanwhile: () => Promise<string>,
): Promise<Record<string, number>> {
  const cut = cutTcp(lab, 'hostp', lab.addresses.rdv!, RDV_PORT);
  let squat;
  try {
    await host.until((v) => v.internet?.status === 'reconnecting', 'the host’s link down', 30_000);
    const url = await meanwhile();
    squat = await runSwarm(lab, 'squatter', { mode: 'squat', url, sources: squatters, roomId: room.roomId });
  } finally {
    cut.restore();
  }
  console.log(`[squat, ${what}] ${JSON.stringify(squat)}`);
  const ms = await reregistered(room.from);
  console.log(`[squat, ${what}] the link back, the host registered its id again in ${Math.round(ms)} ms`);
  await guestJoins(room.code);
  await host.call('lobby.leave');
  return squat.tally as Record<string, number>;
}

async function guestJoins(code: string): Promise<void> {
  const joined = await guest.joinAsPlayer(code);
  expect(joined.view?.status, joined.refusals.join(' | ')).toBe('in-room');
  await host.until((v) => (v.state?.players.length ?? 0) === 2, 'the guest in the host’s room');
  await guest.call('lobby.leave');
  await host.until((v) => v.state?.players.length === 1, 'the guest gone');
}

describe.skipIf(skip)('a squatter cannot take a room id', () => {
  it('after the host’s link drops: the claims are refused, the host comes back to its id', async () => {
    const tally = await squatWhileCut(await hostRoom(), 'link down', async () => rendezvous.url);
    // Every claim refused; the room stayed the host's, waiting for it (a join heard the host is away).
    expect(tally['claim error:room-taken']).toBe(squatters.length);
    expect(tally['join error:host-away']).toBe(squatters.length);
  }, 180_000);

  it('after a restart of the service (same --service-key-file): the claims are refused, the host re-registers', async () => {
    // The host cannot reach the service until the squatter has had its go at the fresh, empty service.
    const tally = await squatWhileCut(await hostRoom(), 'restart', async () => {
      const gone = new Promise((resolve) => rendezvous.child.once('exit', resolve));
      rendezvous.child.kill('SIGKILL');
      await gone;
      rendezvous = await startLabRendezvous(lab, 'rdv', RDV_PORT, { serviceKeyFile: join(keyDir, 'service.key') });
      return rendezvous.url;
    });
    expect(tally['claim error:room-taken']).toBe(squatters.length);
    // The fresh service held no room under that id until its owner came back.
    expect(tally['join error:room-unknown']).toBe(squatters.length);
  }, 240_000);
});
