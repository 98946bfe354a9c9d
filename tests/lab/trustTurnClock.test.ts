import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoomPeer } from '../support/labRoomDriver';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';
import { scriptArgs } from '../support/scriptArgs';

// TURN credentials are fresh for a join at any hour of a room's day: the real rendezvous server on a virtual
// clock (labTrustClockRendezvous.ts) in the namespace lab, a whole backend hosting behind one symmetric NAT and a
// guest behind another, so the only path is coturn's relay (the host's: only a host that accepted a guest gets
// credentials, minted at that moment). coturn checks credentials against the real clock, so the virtual day
// starts 24 h in the past: a grant minted near virtual hour 24 is valid now. At hour 25 the room has reached
// its cap.
const skip = natLabUnavailableReason();
const HOUR = 3_600_000;
const CLOCK = fileURLToPath(new URL('../support/labTrustClockRendezvous.ts', import.meta.url));

type ClockEvent = { ev: string; url?: string; hour?: number; message?: string };

let lab: NatLab;
let clock: ChildProcess;
let host: RoomPeer;
let guest: RoomPeer;
let url = '';
const events: ClockEvent[] = [];

/** The clock's next event of kind `ev` (after those already seen). */
async function clockEvent(ev: string, timeoutMs: number): Promise<ClockEvent> {
  const seen = events.length;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const event = events.slice(seen).find((e) => e.ev === ev || e.ev === 'error');
    if (event?.ev === 'error') throw new Error(event.message);
    if (event) return event;
    if (Date.now() > deadline || clock.exitCode !== null) throw new Error(`no ${ev} from the clocked rendezvous`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function advance(ms: number): Promise<ClockEvent> {
  const next = clockEvent('advanced', 60_000);
  clock.stdin!.write(`${JSON.stringify({ advanceMs: ms, stepMs: 60_000 })}\n`);
  return next;
}

beforeAll(async () => {
  if (skip) return;
  lab = await createNatLab({
    routers: { sym1: 'symmetric', sym2: 'symmetric' },
    players: { s1: { router: 'sym1' }, s2: { router: 'sym2' }, rdv: 'public' },
  });
  const options = {
    host: lab.addresses.rdv,
    port: 8787,
    turnUrl: `turn:${lab.turn.host}:${lab.turn.port}`,
    turnSecret: lab.turn.secret,
    startOffsetMs: -24 * HOUR,
  };
  clock = lab.spawnIn('rdv', process.execPath, [...scriptArgs(CLOCK), JSON.stringify(options)]);
  createInterface({ input: clock.stdout! }).on('line', (line) => events.push(JSON.parse(line) as ClockEvent));
  const ready = await clockEvent('ready', 60_000);
  url = ready.url!;
  [host, guest] = await Promise.all([RoomPeer.start(lab, 's1', url), RoomPeer.start(lab, 's2', url)]);
}, 120_000);

afterAll(async () => {
  host?.stop();
  guest?.stop();
  clock?.stdin?.write(`${JSON.stringify({ exit: true })}\n`);
  await lab?.destroy();
});

describe.skipIf(skip)('TURN credentials for a join at hour 24 of a room’s day (virtual clock, real coturn)', () => {
  it('at virtual hour 24 a relayed join works on credentials minted for it; nobody offers coturn stale ones', async () => {
    const hosted = await host.command('lobby.host', { reach: 'internet' });
    const code = hosted.internet!.code;
    const late = await advance(23 * HOUR + 55 * 60_000);
    console.log(`[turn clock] at virtual hour ${late.hour!.toFixed(2)}`);

    const started = performance.now();
    const joined = await guest.command('lobby.joinByCode', { code });
    expect(joined.status).toBe('in-room');
    const seen = await host.until((v) => (v.state?.players.length ?? 0) === 2, 'the guest in the host’s room', 30_000);
    console.log(`[turn clock] relayed join at virtual hour 24 in ${Math.round(performance.now() - started)} ms`);
    expect(seen.state!.players[1]!.path).toBe('relayed');
    await guest.call('lobby.chat', { text: 'still here at hour 24' });
    await host.until((v) => v.state?.chat.some((c) => c.text === 'still here at hour 24') ?? false, 'the chat line');
    // coturn refused nothing: neither end offered it stale credentials (coturn logs each refusal by user name).
    const refused = [...lab.turn.log().matchAll(/Cannot find credentials of user <([^>]*)>/g)].map((m) => m[1]);
    console.log(`[turn clock] coturn refused: ${JSON.stringify(refused)}`);
    expect(refused).toEqual([]);
    await guest.call('lobby.leave');

    // Hour 25: past the room's 24 h cap, the host is told and the code stops working.
    await advance(65 * 60_000);
    await host.until((v) => v.internet?.status === 'expired', 'the room expired at its cap', 15_000);
    const after = await guest.tryCall('lobby.joinByCode', { code });
    expect(after.ok).toBe(false);
    expect(after.error!.message).toMatch(/does not exist any more|expired/i);
  }, 180_000);
});
