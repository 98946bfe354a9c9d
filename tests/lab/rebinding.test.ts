import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLabRendezvous } from '../support/labRendezvous';
import { RoomPeer } from '../support/labRoomDriver';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';
import { RebindableRouter, rebindUnavailableReason } from '../support/natLabRebind';
import { chaseMove } from '../support/tagChase';
import { sleep } from '../support/waitFor';
import type { LobbyView } from '../../shared/ipc/schemas/lobby';
import { TAG_REACH } from '../../shared/games/tag/rules';

// Issue 30: an internet guest whose public address changes under it (its home router forgets every mapping and
// hands out new ports, or gets a new WAN address: tests/support/natLabRebind.ts) stays in the room. One room per
// path (direct: endpoint-independent NATs; relayed: symmetric NATs, through coturn), moved four times in a row:
// ports then address in the lobby, ports then address mid-round. After each move, without a click, the guest
// has the same player id, name, colour, ready state and (mid-round) score, and the chat lines both sides typed
// into the gap arrive exactly once and in order (or were refused in words). The gap, from the move to the first
// datagram over the new path, is printed, not asserted: it moves with the machine's load.
const skip = natLabUnavailableReason() ?? rebindUnavailableReason();
const RDV_PORT = 8787;

let lab: NatLab;
let rendezvousUrl = '';
const children: ChildProcess[] = [];
const peers: RoomPeer[] = [];

beforeAll(async () => {
  if (skip) return;
  lab = await createNatLab({
    routers: {
      hostEim: 'endpoint-independent',
      guestEim: 'endpoint-independent',
      hostSym: 'symmetric',
      guestSym: 'symmetric',
    },
    players: {
      he: { router: 'hostEim' },
      ge: { router: 'guestEim' },
      hs: { router: 'hostSym' },
      gs: { router: 'guestSym' },
      rdv: 'public',
    },
  });
  const rendezvous = await startLabRendezvous(lab, 'rdv', RDV_PORT);
  children.push(rendezvous.child);
  rendezvousUrl = rendezvous.url;
}, 60_000);

afterAll(async () => {
  for (const peer of peers) peer.stop();
  for (const child of [...children, ...peers.map((p) => p.child)]) if (child.exitCode === null) child.kill('SIGKILL');
  await lab?.destroy();
});

/** `cut-ports`: a port move while the rendezvous is out of reach for longer than the session lives (no restart can work). */
type Move = 'ports' | 'address' | 'cut-ports';
/**
 * How long `cut-ports` keeps the rendezvous away: past the guest's 10 s session timeout (labNetwork's join timeout),
 * with room to spare, so an ICE restart (the rendezvous, then ICE) cannot win the race against the session's end.
 */
const CUT_MS = 13_000;
const seatOf = (view: LobbyView, id: number) => view.state?.players.find((p) => p.id === id);
/** A player's score in the latest tag snapshot (players are `[id, x, y, vx, vy, flags, score, …]`). */
const scoreOf = (snapshot: unknown, id: number): number | undefined =>
  (snapshot as { p?: unknown[][] } | undefined)?.p?.find((p) => String(p[0]) === String(id))?.[6] as number | undefined;

/** A room over one path: the host, the guest joined by NET- code, and the guest's router to move. */
async function openRoom(hostAt: string, guestAt: string, router: string) {
  const [host, guest] = await Promise.all([
    RoomPeer.start(lab, hostAt, rendezvousUrl, { logs: true }),
    RoomPeer.start(lab, guestAt, rendezvousUrl, { logs: true }),
  ]);
  peers.push(host, guest);
  const hosted = await host.command('lobby.host', { roomName: `${hostAt} room`, reach: 'internet' });
  const joined = await guest.command('lobby.joinByCode', { code: hosted.internet!.code });
  expect(joined.status).toBe('in-room');
  const you = joined.you!;
  const seen = await host.until((v) => seatOf(v, you) !== undefined, 'the guest in the host’s room');
  await guest.call('lobby.setReady', { ready: true });
  await host.until((v) => seatOf(v, you)?.ready === true, 'the guest ready');
  return { host, guest, you, path: seatOf(seen, you)!.path, router: new RebindableRouter(lab, router) };
}

type Room = Awaited<ReturnType<typeof openRoom>>;
let nextWan = 120;

/**
 * Moves the guest's router, types chat into the gap on both sides, and checks the seat, the score and the chat
 * once the guest is back; returns the printed line.
 */
async function moveAndCheck(room: Room, label: string, move: Move): Promise<string> {
  const { host, guest, you } = room;
  const hostView = host.views.at(-1)!;
  const before = seatOf(hostView, you)!;
  const playing = hostView.state!.phase === 'playing';
  const scoreBefore = playing ? scoreOf(host.lastSnapshot, you) : undefined;
  const chatBefore = hostView.state!.chat.length;

  const movedAt = Date.now();
  if (move === 'cut-ports') room.router.cutOff(lab.addresses.rdv!);
  if (move === 'address') room.router.moveAddress(`203.0.113.${nextWan++}`);
  else room.router.movePorts();
  const cut = move === 'cut-ports' ? sleep(CUT_MS).then(() => room.router.reachAgain()) : Promise.resolve();
  // Typed into the gap by both sides, twice: each is carried over (reliable, in order) or refused in words.
  const sent: string[] = [];
  const refused: string[] = [];
  for (const round of [1, 2]) {
    for (const [who, peer] of [
      ['guest', guest],
      ['host', host],
    ] as const) {
      const text = `${label} ${who} ${round}`;
      const result = await peer.tryCall('lobby.chat', { text });
      if (result.ok) sent.push(text);
      else refused.push(`${text}: ${result.error!.message}`);
    }
    if (round === 1) await sleep(1_000);
  }
  await cut;
  const back = await guest
    .logged(
      move === 'cut-ports' ? /back in the room after/ : /internet path back|back in the room after/,
      movedAt,
      `the guest back (${label})`,
      40_000,
    )
    .catch((error: Error) => {
      const hostLines = host.logs.filter((l) => l.at >= movedAt).map((l) => `${l.level} ${l.line}`);
      throw new Error(`${error.message}\nthe host's log since the move:\n${hostLines.join('\n')}`);
    });
  const gapMs = back.at - movedAt;
  const restart = guest.logs.find((l) => l.at >= movedAt && /internet path (restarted|reopened)/.test(l.line));
  const took = guest.logs.find((l) => l.at >= movedAt && /the ICE restart took/.test(l.line))?.line;
  const over = restart && /reopened (\w+ \([^)]*\))/.exec(restart.line)?.[1];
  const arrived = (v: LobbyView) => sent.every((t) => v.state?.chat.some((l) => l.text === t));
  const chatOf = (peer: RoomPeer) =>
    JSON.stringify(
      peer.views
        .at(-1)
        ?.state?.chat.slice(chatBefore)
        .map((l) => l.text),
    );
  const wait = (peer: RoomPeer, side: string) =>
    peer.until(
      arrived,
      `the gap's chat at the ${side} (${label}): sent ${JSON.stringify(sent)}, has ${chatOf(peer)}`,
      30_000,
    );
  const [hostAfter, guestAfter] = await Promise.all([wait(host, 'host'), wait(guest, 'guest')]);
  const chatMs = Date.now() - movedAt;

  for (const refusal of refused) expect(refusal).toMatch(/Reconnecting to the host… Your message was not sent/);
  for (const view of [hostAfter, guestAfter]) {
    const texts = view.state!.chat.slice(chatBefore).map((l) => l.text);
    // Exactly once each, and each side's lines in the order typed.
    expect(texts.filter((t) => t.startsWith(label)).sort()).toEqual([...sent].sort());
    for (const who of ['guest', 'host']) {
      const mine = sent.filter((t) => t.startsWith(`${label} ${who}`));
      expect(texts.filter((t) => mine.includes(t))).toEqual(mine);
    }
  }
  expect(guestAfter.state!.chat.map((l) => l.id)).toEqual(hostAfter.state!.chat.map((l) => l.id));
  // The same seat, with no click: id, name, colour, ready; the guest sees itself there too.
  const seat = seatOf(hostAfter, you);
  expect(seat).toMatchObject({ id: before.id, name: before.name, colour: before.colour, ready: before.ready });
  expect(seat?.awayUntil ?? undefined).toBeUndefined();
  expect(guestAfter.status).toBe('in-room');
  expect(guestAfter.you).toBe(you);
  let scored = '';
  if (playing) {
    expect(hostAfter.state!.phase).toBe('playing');
    const scoreAfter = scoreOf(host.lastSnapshot, you);
    expect(scoreAfter).toBeDefined();
    expect(scoreAfter!).toBeGreaterThanOrEqual(scoreBefore!);
    scored = `, score ${scoreBefore} → ${scoreAfter}`;
  }
  const how = /path back/.test(back.line)
    ? `ICE restart${over ? ` to ${over}` : ''}${took ? `, ${/took (\d+ ms)/.exec(took)?.[1]} for the restart` : ''}` +
      `${took ? `, silence of ${/\((\d+ ms) counted/.exec(took)?.[1]} counted` : ''}`
    : 'rejoined with its resume token';
  return (
    `${label}: gap ${gapMs} ms (${how}); the gap's chat everywhere after ${chatMs} ms` +
    `${refused.length ? `, ${refused.length} refused` : ''}${scored}; seat ${seat!.id} ${seat!.name} kept`
  );
}

/**
 * Waits until the guest has a score to keep. Whoever is not IT scores; IT is drawn at random, so an IT guest
 * chases the (idle) host round the obstacles and tags it first, as a player would.
 */
async function guestScores(room: Room): Promise<void> {
  const deadline = Date.now() + 30_000;
  let sequence = 0;
  let accepted = 0;
  for (;;) {
    const players = (room.host.lastSnapshot as { p?: (number | string)[][] } | undefined)?.p ?? [];
    const me = players.find((p) => String(p[0]) === String(room.you))?.map(Number);
    const other = players.find((p) => String(p[0]) !== String(room.you))?.map(Number);
    if (me && me[6]! > 0.5) return;
    if (Date.now() > deadline) {
      // What the guest's side saw, to tell a missing game link, a missing roster or lost inputs apart.
      const stats = await room.guest.tryCall('net.stats');
      throw new Error(
        `the guest has not scored in 30 s: ${JSON.stringify(players)}; inputs accepted ${accepted}/${sequence}; ` +
          `guest snapshots ${room.guest.snapshots}; guest net.stats ${JSON.stringify(stats)}; guest log:\n` +
          room.guest.logs
            .slice(-25)
            .map((l) => `${l.level} ${l.line}`)
            .join('\n'),
      );
    }
    const it = me !== undefined && (me[5]! & 1) === 1;
    if (it && other) {
      // Round the obstacles, not straight: a guest pressed against the centre pillar never reaches a host behind it.
      const [at, target] = [
        { x: me[1]!, y: me[2]! },
        { x: other[1]!, y: other[2]! },
      ];
      const tag = Math.hypot(target.x - at.x, target.y - at.y) < TAG_REACH;
      const answer = (await room.guest.call('game.input', {
        inputs: [{ sequence: ++sequence, ...chaseMove(at, target), tag }],
        interpolationDelay: 0.1,
      })) as { accepted?: boolean };
      if (answer.accepted) accepted += 1;
    }
    await sleep(50);
  }
}

/**
 * Four moves in one room: ports then address in the lobby, ports then address mid-round; with `fallback`, a fifth
 * mid-round with the rendezvous out of reach until the session is given up: the guest's own rejoin with its resume
 * token over a fresh path brings it back.
 */
async function moveFourTimes(room: Room, path: string, fallback = false): Promise<void> {
  const lines: string[] = [];
  lines.push(await moveAndCheck(room, `${path} lobby ports`, 'ports'));
  lines.push(await moveAndCheck(room, `${path} lobby address`, 'address'));
  await room.host.call('lobby.start');
  await room.guest.until((v) => v.state?.phase === 'playing', 'the round at the guest');
  await guestScores(room);
  lines.push(await moveAndCheck(room, `${path} round ports`, 'ports'));
  lines.push(await moveAndCheck(room, `${path} round address`, 'address'));
  if (fallback)
    lines.push(await moveAndCheck(room, `${path} round ports, rendezvous away ${CUT_MS / 1000} s`, 'cut-ports'));
  for (const line of lines) console.log(`[lab rebinding] ${line}`);
}

// The two rooms share only the rendezvous (their players, routers and NATs are their own; every moved address is
// fresh), so they move side by side.
describe.skipIf(skip)('an internet guest whose public address changes', () => {
  it.concurrent(
    'direct path (endpoint-independent NATs): keeps its seat, score and chat through four moves',
    async () => {
      const room = await openRoom('he', 'ge', 'guestEim');
      expect(room.path).toBe('direct');
      await moveFourTimes(room, 'direct');
    },
    180_000,
  );

  it.concurrent(
    'relayed path (symmetric NATs, coturn): keeps its seat, score and chat through four moves',
    async () => {
      const room = await openRoom('hs', 'gs', 'guestSym');
      expect(room.path).toBe('relayed');
      await moveFourTimes(room, 'relayed', true);
    },
    180_000,
  );
});
