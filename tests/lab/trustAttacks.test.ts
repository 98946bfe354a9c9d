import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_GUESS_BUDGET } from '../../main/reach/internet/internetRoom';
import { startLabRendezvous } from '../support/labRendezvous';
import { addSourceAddresses, runSwarm, startSwarm, udpOutCounter, untilQuiet } from '../support/labTrustLab';
import { RoomPeer } from '../support/labRoomDriver';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';
import { decodeInternetCode } from '../../shared/rendezvous';
import type { LobbyView } from '../../shared/ipc/schemas/lobby';

// Strangers against an internet room, in the namespace lab (tests/support/natLab.ts) with the real rendezvous
// (the host CLI's --rendezvous) and a whole backend as host and as guest. The strangers speak the rendezvous
// WebSocket protocol from a public-side namespace with many source addresses (labTrustSwarm.ts): all of them
// inside the lab's own 203.0.113.0/24, which exists only in its namespaces.
const skip = natLabUnavailableReason();
const RDV_PORT = 8787;
/** The room's guess budget (CODE_GUESS_BUDGET, main/reach/internet/internetRoom.ts): 20 at once, then one a refill. */
const BURST = CODE_GUESS_BUDGET.burst;
const REFILL_MS = CODE_GUESS_BUDGET.refillMs;
const BACKOFF = /too many wrong codes for this room; try again in (\d+(?:\.\d)?) s/i;

let lab: NatLab;
let url = '';
let host: RoomPeer;
let guest: RoomPeer;
const sources: Record<string, string[]> = {};
let hosting = false;

beforeAll(async () => {
  if (skip) return;
  lab = await createNatLab({
    routers: { home1: 'endpoint-independent', home2: 'endpoint-independent' },
    players: { hostp: { router: 'home1' }, guestp: { router: 'home2' }, rdv: 'public', swarm: 'public' },
  });
  url = (await startLabRendezvous(lab, 'rdv', RDV_PORT)).url;
  sources.guess = addSourceAddresses(lab, 'swarm', 100, 64);
  sources.replay = addSourceAddresses(lab, 'swarm', 170, 20);
  sources.probe = addSourceAddresses(lab, 'swarm', 200, 1);
  sources.eight = addSourceAddresses(lab, 'swarm', 210, 8);
  sources.one = addSourceAddresses(lab, 'swarm', 220, 1);
  sources.burst = addSourceAddresses(lab, 'swarm', 230, 8);
  sources.eightHold = addSourceAddresses(lab, 'swarm', 240, 8);
  [host, guest] = await Promise.all([RoomPeer.start(lab, 'hostp', url), RoomPeer.start(lab, 'guestp', url)]);
}, 120_000);

afterAll(async () => {
  host?.stop();
  guest?.stop();
  await lab?.destroy();
});

/** Hosts a fresh internet room (a fresh guess budget); returns its code and the host views from then on. */
async function freshRoom(): Promise<{ code: string; roomId: string; secret: string; hostViews: () => LobbyView[] }> {
  if (hosting) await host.call('lobby.leave');
  hosting = true;
  const from = host.views.length;
  const hosted = await host.command('lobby.host', { reach: 'internet' });
  const code = hosted.internet!.code;
  const parsed = decodeInternetCode(code);
  if (!parsed.ok) throw new Error(parsed.reason);
  return { code, ...parsed.code, hostViews: () => host.views.slice(from) };
}

/** The guest joins as a player would (one click; a refusal would be recorded), is seen by the host, and leaves. */
async function guestGetsIn(code: string): Promise<{ ms: number; refusals: string[] }> {
  const joined = await guest.joinAsPlayer(code);
  console.log(
    `[real guest] ${joined.view ? 'in' : 'NOT in'} after ${Math.round(joined.ms)} ms; refusals ${JSON.stringify(joined.refusals)}`,
  );
  expect(joined.view?.status, joined.refusals.join(' | ')).toBe('in-room');
  await host.until((v) => (v.state?.players.length ?? 0) === 2, 'the guest in the host’s room');
  await guest.call('lobby.leave');
  await host.until((v) => v.state?.players.length === 1, 'the guest gone');
  return { ms: joined.ms, refusals: joined.refusals };
}

describe.skipIf(skip)('strangers cannot guess, replay, probe or lock out an internet room', () => {
  it('1,000 wrong codes through 1,000 joins are slowed by the room budget; the right code gets in after', async () => {
    const room = await freshRoom();
    const attack = await runSwarm(lab, 'swarm', {
      mode: 'guess',
      url,
      sources: sources.guess!,
      roomId: room.roomId,
      attempts: 1000,
      concurrency: 8,
    });
    const stopped = performance.now();
    const tally = attack.tally as Record<string, number>;
    const elapsedMs = attack.elapsedMs as number;
    const checked = tally.answered ?? 0;
    const bound = BURST + Math.ceil(elapsedMs / REFILL_MS) + 1;
    console.log(
      `[guess] 1000 joins in ${Math.round(elapsedMs)} ms: host checked ${checked} (budget bound ${bound}), ` +
        `${tally.backoff ?? 0} told to back off ("${String(attack.backoffText)}"); tally ${JSON.stringify(tally)}`,
    );
    // Every one of the 1,000 reached the host and got its verdict: checked, or told to wait.
    expect(checked + (tally.backoff ?? 0)).toBe(1000);
    expect(checked).toBeLessThanOrEqual(bound);
    expect(tally.backoff).toBeGreaterThanOrEqual(1000 - bound);
    expect(String(attack.backoffText)).toMatch(BACKOFF);
    // Every checked guess was refused as a wrong code.
    expect(tally['after-answer:rejected:other']).toBe(checked);
    // The host's link stayed up through the attack.
    expect(room.hostViews().every((v) => v.internet?.status !== 'reconnecting')).toBe(true);
    const after = await guestGetsIn(room.code);
    console.log(`[guess] the right code got in ${Math.round(performance.now() - stopped)} ms after the attack stopped`);
    // One click: the app waits out the budget's "try again in N s" (N ≤ one refill) by itself, so the player
    // never reads a refusal (main/reach/internet/budgetRetry.ts).
    expect(after.refusals).toEqual([]);
  }, 180_000);

  it('a replayed guest offer (same bytes, 100 times) makes the host check no address; a real join still works', async () => {
    const room = await freshRoom();
    const decoys = ['203.0.113.251', '203.0.113.252'];
    const wire = udpOutCounter(lab, 'hostp', decoys);
    // The genuine exchange the replays copy: it names only the decoys, and the host does check them (the
    // counter sees it), so a zero later is the replay's doing, not a counter that cannot count.
    const captured = await runSwarm(lab, 'swarm', {
      mode: 'capture',
      url,
      sources: [sources.replay![0]!],
      roomId: room.roomId,
      secret: room.secret,
      decoys,
    });
    expect(captured.hostSignalled).toBe(true);
    // The host's checks of the genuine exchange end when its ICE gives up (10 s, connectTimeoutSeconds).
    const control = await untilQuiet(() => wire.read(), 3000, 40_000, 11_000);
    console.log(`[replay] the genuine exchange: ${control} UDP packets from the host to the decoys`);
    expect(control).toBeGreaterThan(0);
    wire.reset();
    const replayed = await runSwarm(lab, 'swarm', {
      mode: 'replay',
      url,
      sources: sources.replay!.slice(1),
      joinText: String(captured.joinText),
      pake: String(captured.pake),
      sealed: String(captured.sealed),
      replays: 100,
      concurrency: 4,
    });
    const tally = replayed.tally as Record<string, number>;
    const afterReplays = await untilQuiet(() => wire.read(), 3000, 40_000);
    console.log(`[replay] 100 replays: ${JSON.stringify(tally)}; ${afterReplays} UDP packets to the decoys`);
    expect((tally.answered ?? 0) + (tally.backoff ?? 0)).toBe(100);
    expect(tally['host-accepted']).toBeUndefined();
    expect(tally['host-signalled']).toBeUndefined();
    expect(tally['after-confirm:rejected']).toBe(tally.answered);
    expect(afterReplays).toBe(0);
    await guestGetsIn(room.code);
  }, 180_000);

  it('unknown-room probing is slowed: answers to one address come far slower than it asks', async () => {
    const room = await freshRoom();
    const probes = await runSwarm(lab, 'swarm', {
      mode: 'probe',
      url,
      sources: sources.probe!,
      probes: 60,
      perSecond: 10,
      waitMs: 12_000,
      knownRoomId: room.roomId,
    });
    const tally = probes.tally as Record<string, number>;
    const answered = tally.answered ?? 0;
    const seconds = (probes.elapsedMs as number) / 1000;
    console.log(
      `[probe] 60 probes sent in ${Math.round(probes.sendingMs as number)} ms: ${answered} answered in ${seconds.toFixed(1)} s ` +
        `(${(answered / seconds).toFixed(2)}/s; the old code answered all at ~10/s); ${JSON.stringify(tally)}; ` +
        `a known room's join from the same address: ${probes.knownMs === undefined ? 'no answer within 3 s' : `${String(probes.knownReply)} after ${Math.round(probes.knownMs as number)} ms`}`,
    );
    // The budget answers a mistyped id at once; past it, far below the rate asked.
    expect(answered).toBeGreaterThanOrEqual(5);
    expect(answered / seconds).toBeLessThan(3);
    // Nor does a room that exists answer that address sooner: no quick "it exists".
    expect(probes.knownReply === 'join-pending:' && (probes.knownMs as number) < 1000).toBe(false);
  }, 120_000);

  it('joins opened and held from one address, and from eight, do not keep a real guest out', async () => {
    for (const [what, from] of [
      ['one address', sources.one!],
      ['eight addresses', sources.eightHold!],
    ] as const) {
      const room = await freshRoom();
      const held = startSwarm(lab, 'swarm', {
        mode: 'churn',
        url,
        sources: [...from],
        roomId: room.roomId,
        rounds: 1,
        minMs: 0,
        joinsPerConnection: 4,
        hold: true,
      });
      const holding = await held.result;
      console.log(`[hold] ${what} holding: ${JSON.stringify(holding)}`);
      // Two connections × four joins from each address, all still open while the guest comes.
      expect((holding.tally as Record<string, number>)['joins-sent']).toBe(from.length * 8);
      const during = await guestGetsIn(room.code);
      held.child.stdin!.end();
      // The held joins spent fewer of the room's guesses than it holds: the guest was never told to wait.
      expect(during.refusals).toEqual([]);
      expect((holding.tally as Record<string, number>)['seen:answer:'] ?? 0).toBeLessThanOrEqual(from.length * 2);
    }
  }, 180_000);

  it('joins opened and dropped over and over from eight addresses do not keep a real guest out', async () => {
    const room = await freshRoom();
    const churn = startSwarm(lab, 'swarm', {
      mode: 'churn',
      url,
      sources: sources.eight!,
      roomId: room.roomId,
      rounds: 10,
      minMs: 8_000,
      joinsPerConnection: 4,
      hold: false,
    });
    await churn.started;
    // The guest joins while the eight addresses go on opening and dropping joins.
    const during = await guestGetsIn(room.code);
    const churned = await churn.result;
    const tally = churned.tally as Record<string, number>;
    console.log(`[churn] eight addresses: ${JSON.stringify(churned)}; guest in after ${Math.round(during.ms)} ms`);
    expect(tally.rounds).toBeGreaterThanOrEqual(10);
    expect(during.refusals).toEqual([]);
    // Two answered joins per address and room that did not get in, then the service refuses theirs.
    expect(tally['seen:answer:'] ?? 0).toBeLessThanOrEqual(8 * 2);
    expect(tally['seen:error:rate-limited']).toBeGreaterThan(0);
  }, 120_000);

  it('64 joins opened and closed at once from eight addresses leave the host’s link up and the room joinable', async () => {
    const room = await freshRoom();
    const burst = await runSwarm(lab, 'swarm', {
      mode: 'churn',
      url,
      sources: sources.burst!,
      roomId: room.roomId,
      rounds: 1,
      minMs: 0,
      joinsPerConnection: 4,
      hold: false,
    });
    console.log(`[64 at once] ${JSON.stringify(burst)}`);
    expect((burst.tally as Record<string, number>)['joins-sent']).toBe(64);
    await guestGetsIn(room.code);
    // Every view the host had of its room since hosting it: registered throughout (never reconnecting).
    const statuses = room.hostViews().map((v) => `${v.status}/${v.internet?.status ?? '-'}`);
    console.log(`[64 at once] host views: ${JSON.stringify([...new Set(statuses)])}`);
    expect(statuses).toContain('in-room/registered');
    expect(room.hostViews().every((v) => !v.internet || v.internet.status === 'registered')).toBe(true);
  }, 120_000);
});
