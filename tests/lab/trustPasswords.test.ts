import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOBBY_HOST_LIMITS } from '../../main/lobby/host/lobbyHostLimits';
import { startLabRendezvous } from '../support/labRendezvous';
import { RoomPeer } from '../support/labRoomDriver';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';

// Password guessing against an internet room, in the namespace lab (tests/support/natLab.ts) with the real
// rendezvous and coturn: the host a whole backend behind a NAT, the guessers whole backends on the public side,
// each in its own namespace (its own address for the rendezvous and for ICE alike: eight machines), all inside
// the lab's own 203.0.113.0/24. They know the room's NET- code (a friend shared it) but not its password.
const skip = natLabUnavailableReason();
const RDV_PORT = 8787;
/** The room's password budget (main/lobby/host/lobbyHostLimits.ts): 20 challenges at once, then one a refill. */
const { burst: BURST, refillMs: REFILL_MS } = DEFAULT_LOBBY_HOST_LIMITS.passwordBudget;
/** Free tries per address before its own backoff (main/lobby/host/tryBackoff.ts). */
const FREE_TRIES = DEFAULT_LOBBY_HOST_LIMITS.tries.freeTries;
/**
 * Wrong-password joins in the attack. Issue 29 asks for 1,000; each is a whole internet join (rendezvous, ICE,
 * the CPace exchange), so the suite makes 100 and 1,000 is run by hand: LP_PASSWORD_GUESSES=1000.
 */
const GUESSES = Number(process.env.LP_PASSWORD_GUESSES ?? 100);
if (!Number.isInteger(GUESSES) || GUESSES < 1) throw new Error(`LP_PASSWORD_GUESSES: a count of joins, not ${GUESSES}`);
/** Eight addresses: their free tries alone (8 × 5) pass the room's burst, so only the room budget can hold. */
const GUESSERS = 8;
const PASSWORD = 'over the hills';
const WRONG = /^Wrong password for this room\./;
const WAIT = /^Too many tries, wait (\d+) s\./;
/**
 * Joins that never reach the door, tried again after a pause: the host sets up four paths at once
 * (internetRoom.ts maxPending), and the rendezvous takes a new connection a second from one address after ten.
 */
const TURNED_AWAY: Readonly<Record<string, { readonly said: RegExp; readonly pauseMs: number }>> = {
  'host busy': { said: /busy letting others in/, pauseMs: 250 },
  'rendezvous rate': { said: /Too many requests to the rendezvous service from this address/, pauseMs: 1000 },
  // The room's code-guess budget (each join's key agreement is a guess at the code until the guest is admitted):
  // a swarm of joins that prove the code but never get in spends it too, and is told to wait before the password.
  'code budget': { said: /Too many wrong codes for this room; try again in/, pauseMs: 1500 },
};

let lab: NatLab;
let host: RoomPeer;
let guest: RoomPeer;
let guessers: RoomPeer[] = [];

beforeAll(async () => {
  if (skip) return;
  const names = Array.from({ length: GUESSERS }, (_, i) => `g${i + 1}`);
  lab = await createNatLab({
    routers: { home1: 'endpoint-independent', home2: 'endpoint-independent' },
    players: {
      hostp: { router: 'home1' },
      guestp: { router: 'home2' },
      rdv: 'public',
      ...Object.fromEntries(names.map((name) => [name, 'public' as const])),
    },
  });
  const { url } = await startLabRendezvous(lab, 'rdv', RDV_PORT);
  // The host's log names each guest's path by the synthetic address of its ICE origin (socketMux.ts).
  [host, guest, ...guessers] = await Promise.all([
    RoomPeer.start(lab, 'hostp', url, { logs: true }),
    RoomPeer.start(lab, 'guestp', url),
    ...names.map((name) => RoomPeer.start(lab, name, url)),
  ]);
}, 240_000);

afterAll(async () => {
  for (const peer of [host, guest, ...guessers]) peer?.stop();
  await lab?.destroy();
});

/** What the guessers were told, join by join. */
interface Tally {
  wrong: number;
  wait: number;
  /** Joins turned away before the door (TURNED_AWAY), by why: tried again, not counted. */
  turnedAway: Record<string, number>;
  /** Anything else: a join that got in, or failed in other words. */
  other: string[];
  waitText?: string;
}

/** One guesser's joins, one after another, each with a wrong password, until the shared count is spent. */
async function guessAway(peer: RoomPeer, code: string, take: () => number | undefined, tally: Tally, deadline: number) {
  for (let n = take(); n !== undefined; n = take()) {
    for (let away = 0; ; away += 1) {
      if (Date.now() > deadline || away > 100) throw new Error(`guess ${n}: no verdict (turned away ${away} times)`);
      const result = await peer.tryCall('lobby.joinByCode', { code, password: `guess ${n}` });
      const message = result.error?.message ?? '';
      const why = result.ok ? undefined : Object.keys(TURNED_AWAY).find((k) => TURNED_AWAY[k]!.said.test(message));
      if (why === undefined) {
        if (result.ok) {
          tally.other.push(`guess ${n} got in`);
          await peer.call('lobby.leave');
        } else if (WRONG.test(message)) tally.wrong += 1;
        else if (WAIT.test(message)) {
          tally.wait += 1;
          tally.waitText = message;
        } else tally.other.push(message);
        break;
      }
      tally.turnedAway[why] = (tally.turnedAway[why] ?? 0) + 1;
      await new Promise((r) => setTimeout(r, TURNED_AWAY[why]!.pauseMs));
    }
  }
}

describe.skipIf(skip)('strangers cannot guess an internet room’s password', () => {
  it(
    `${GUESSES} wrong passwords through ${GUESSES} internet joins from ${GUESSERS} addresses are slowed by the room budget; the right password gets in after`,
    async () => {
      const hosted = await host.command('lobby.host', { roomName: 'locked', reach: 'internet', password: PASSWORD });
      const code = hosted.internet!.code;
      const hostViewsFrom = host.views.length;
      const tally: Tally = { wrong: 0, wait: 0, turnedAway: {}, other: [] };
      let issued = 0;
      const take = () => (issued < GUESSES ? issued++ : undefined);
      // A join takes a second or two, several on a busy machine; a minute spare.
      const deadline = Date.now() + 60_000 + GUESSES * 2_000;
      const started = performance.now();
      await Promise.all(guessers.map((peer) => guessAway(peer, code, take, tally, deadline)));
      const stopped = performance.now();
      const elapsedMs = stopped - started;
      const stats = (await host.hostStats())!;
      const checked = stats.passwordChecks;
      const bound = BURST + Math.ceil(elapsedMs / REFILL_MS) + 1;
      const origins = new Set(
        host.logs.flatMap((l) => /internet guest (100\.[\d.]+):\d+ connected/.exec(l.line)?.slice(1) ?? []),
      );
      console.log(
        `[password] ${GUESSES} joins from ${origins.size} ICE origins in ${Math.round(elapsedMs)} ms: host checked ` +
          `${checked} (budget bound ${bound}; the addresses' free tries alone ${GUESSERS * FREE_TRIES}), ` +
          `${tally.wait} told to wait ("${tally.waitText}"); turned away before the door and tried again ` +
          `${JSON.stringify(tally.turnedAway)}; ` +
          `host refusals ${JSON.stringify(stats.rejected)}; other ${JSON.stringify(tally.other)}`,
      );
      // Every join reached the door and got its verdict: its proof checked and refused, or told to wait.
      expect(tally.other).toEqual([]);
      expect(tally.wrong + tally.wait).toBe(GUESSES);
      // The guessers came from their eight addresses, so per-address backoff alone would have let more through.
      expect(origins.size).toBe(GUESSERS);
      // The host checked every wrong proof it was sent and no more; the room budget bounds how many.
      expect(checked).toBe(tally.wrong);
      expect(stats.rejected['wrong-password']).toBe(tally.wrong);
      // A join told to wait a few seconds waits it out by itself and tries again (main/lobby/joinRoom.ts), so the
      // host turned away at least as many tries as joins ended told to wait.
      expect(stats.rejected['too-many-tries']).toBeGreaterThanOrEqual(tally.wait);
      expect(checked).toBeGreaterThanOrEqual(Math.min(BURST, GUESSES));
      expect(checked).toBeLessThanOrEqual(bound);
      expect(tally.wait).toBeGreaterThanOrEqual(GUESSES - bound);
      // The host's link to the rendezvous stayed up through the attack.
      expect(host.views.slice(hostViewsFrom).every((v) => v.internet?.status !== 'reconnecting')).toBe(true);

      // A new guest with the right password, with one click: the app waits out the refill by itself.
      const joined = await guest.joinAsPlayer(code, { password: PASSWORD });
      const after = performance.now() - stopped;
      console.log(
        `[password] the right password got in ${Math.round(after)} ms after the attack stopped (goal: 2 s); ` +
          `its join took ${Math.round(joined.ms)} ms, refusals ${JSON.stringify(joined.refusals)}`,
      );
      expect(joined.view?.status, joined.refusals.join(' | ')).toBe('in-room');
      expect(joined.refusals).toEqual([]);
      await host.until((v) => (v.state?.players.length ?? 0) === 2, 'the guest in the host’s room');
    },
    120_000 + GUESSES * 2_500,
  );
});
