import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FloodSpec, StrangerEvent } from '../support/labDhtStranger';
import { DHT_CONNECTS_PER_ADDRESS } from '../../main/reach/internet/dht/dhtDoor';
import { labNetwork, playInRound, RoomPeer } from '../support/labRoomDriver';
import { RebindableRouter, rebindUnavailableReason } from '../support/natLabRebind';
import { deleteNamespacesTagged } from '../support/netns';
import { createPrivateDhtLab, privateDhtLabUnavailableReason, type PrivateDhtLab } from '../support/privateDhtLab';
import type { LobbyView } from '../../shared/ipc/schemas/lobby';
import { readInternetCode } from '../../shared/rendezvous';
import { interrupt, watchOutput } from '../support/cliOutput';
import { scriptArgs } from '../support/scriptArgs';

// Issue 40's "Done when" on a private HyperDHT in namespaces (tests/support/privateDhtLab.ts: five bootstrap nodes on
// the public side, home routers with `masquerade` and `masquerade random` that drop unsolicited WAN input), with no
// rendezvous, no TURN and no miniupnpd: the router maps nothing, so the room meets its guests on the DHT.
// - plain ↔ plain: the host CLI prints a NET-K… code; a guest backend joins with it, chats, and with a second guest
//   a round is played (inputs accepted, snapshots back).
// - plain ↔ randomizing: joins. randomizing ↔ randomizing: the guest is told, with a typed reason, that a relay is
//   needed.
// - A guest whose router forgets its mappings (natLabRebind.ts) keeps its seat on the DHT path.
// - A stranger's flood of DHT connects to the room key (bounded in count and time) leaves a real guest's join
//   working and the host running.
// Times are printed, not asserted (the issue's goals: < 2 s, < 10 s, < 15 s; they move with the machine's load): a
// join is bounded by the app's own DHT connect timeout, and each case by its test timeout. The cases run at once, on
// one lab.
const skip = privateDhtLabUnavailableReason();
// Only the rebinding case moves a router's mappings (conntrack), as tests/lab/rebinding.test.ts does.
const noRebind = skip ?? rebindUnavailableReason();
const HOST_CLI = fileURLToPath(new URL('../../main/cli/hostCli.ts', import.meta.url));
const STRANGER = fileURLToPath(new URL('../support/labDhtStranger.ts', import.meta.url));
// Every namespace of this file starts with this: the afterAll removes any a timed-out setup left.
const TAG = `lpdm${randomBytes(3).toString('hex')}`;
/** The issue's bootstrap address: the first of the lab's five nodes. */
const BOOTSTRAP = '203.0.113.10:49737';
const CODE = /Internet code: (NET-K[0-9A-Z-]+) \(direct: guests find the room on the DHT/;
/**
 * A backend's network in `player`'s namespace, named here: bound to and advertising its own lab address, discovery
 * broadcasts to loopback only, the lab's private DHT; labNetwork names the rest (no router asked to map).
 */
function dhtNetwork(player: string) {
  const at = lab.addresses[player]!;
  const named = { bindAddress: at, advertiseAddress: at, broadcastTargets: ['127.255.255.255'] };
  return { ...labNetwork(at), ...named, dhtBootstrap: [BOOTSTRAP] };
}

let lab: PrivateDhtLab;
let dataDir = '';
const peers: RoomPeer[] = [];

beforeAll(async () => {
  if (skip) return;
  dataDir = mkdtempSync(join(tmpdir(), 'lan-party-dht-lab-'));
  lab = await createPrivateDhtLab({
    routers: {
      home: 'endpoint-independent',
      away: 'endpoint-independent',
      rhome: 'symmetric',
      raway: 'symmetric',
      rbAway: 'endpoint-independent',
    },
    players: {
      roundHost: { router: 'home' },
      randomHost: { router: 'home' },
      floodHost: { router: 'home' },
      rebindHost: { router: 'home' },
      first: { router: 'away' },
      second: { router: 'away' },
      floodGuest: { router: 'away' },
      bothRandomHost: { router: 'rhome' },
      randomGuest: { router: 'raway' },
      bothRandomGuest: { router: 'raway' },
      rebindGuest: { router: 'rbAway' },
      stranger: 'public',
    },
    tag: TAG,
  });
  console.log(`[dht lab] five bootstrap nodes up in ${lab.bootstrapMs} ms`);
}, 120_000);

afterAll(async () => {
  for (const peer of peers) peer.stop();
  await lab?.destroy();
  deleteNamespacesTagged(TAG);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A guest backend in `player`'s namespace on the lab's DHT; stopped by the afterAll. */
async function guestIn(player: string, logs = false): Promise<RoomPeer> {
  const peer = await RoomPeer.start(lab, player, null, { network: dhtNetwork(player), logs });
  peers.push(peer);
  return peer;
}

/** The host CLI in `player`'s namespace: internet reach, the lab's DHT, its router asked (it maps nothing). */
function startHostCli(player: string, name: string, router: string): ChildProcess {
  const at = lab.addresses[player]!;
  return lab.spawnIn(player, 'env', [
    `XDG_DATA_HOME=${join(dataDir, player)}`,
    process.execPath,
    ...scriptArgs(HOST_CLI),
    // Any free port, bound to and advertising the namespace's address, no discovery socket, no announcements.
    ...['--name', name, '--port', '0', '--bind', at, '--advertise', at, '--no-discovery', '--no-announce'],
    ...['--reach', 'internet', '--router-gateway', lab.gateways[router]!, '--dht-bootstrap', BOOTSTRAP],
  ]);
}

/** A host CLI with its room open on the DHT: its code and its log. */
async function openCliRoom(player: string, name: string, router: string) {
  const cli = startHostCli(player, name, router);
  const log = watchOutput(cli);
  const [, code] = await log.line(CODE);
  return { cli, log, code: code! };
}

const seatOf = (view: LobbyView | undefined, id: number | null | undefined) =>
  view?.state?.players.find((p) => p.id === id);

/** The stranger (tests/support/labDhtStranger.ts) in `player`'s namespace, flooding as `spec` says. */
function strangerIn(player: string, spec: FloodSpec) {
  const child = lab.spawnIn(player, process.execPath, [...scriptArgs(STRANGER), JSON.stringify(spec), BOOTSTRAP]);
  const events: StrangerEvent[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-3000)));
  createInterface({ input: child.stdout! }).on('line', (line) => events.push(JSON.parse(line) as StrangerEvent));
  return {
    async next<E extends StrangerEvent['ev']>(ev: E, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find((event) => event.ev === ev || event.ev === 'error');
        if (found?.ev === 'error') throw new Error(`${player}: ${found.message}\n${stderr}`);
        if (found) return found as Extract<StrangerEvent, { ev: E }>;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`${player}: no "${ev}" within ${timeoutMs} ms; saw ${JSON.stringify(events)}\n${stderr}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    stop: () => child.stdin!.end(),
  };
}

type Failure = { ok: boolean; error?: { message: string; detail?: string } };

describe.skipIf(skip)(
  `a room met on a private HyperDHT, no rendezvous, no TURN${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    it.concurrent(
      'plain ↔ plain: the host CLI prints a NET-K… code; a guest joins, chats and plays a round',
      async () => {
        const { cli, log, code } = await openCliRoom('roundHost', 'DHT lab room', 'home');
        const [guest, second] = await Promise.all([guestIn('first'), guestIn('second')]);
        const joined = await guest.joinAsPlayer(code);
        console.log(`[dht lab] plain ↔ plain: joined in ${Math.round(joined.ms)} ms (issue: < 2 s)`);
        expect(joined.refusals).toEqual([]);
        expect(joined.view?.status).toBe('in-room');
        expect(joined.view?.state?.roomName).toBe('DHT lab room');
        expect(seatOf(joined.view, joined.view?.you)?.path).toBe('dht');
        await log.line(/joined as player \d+ \(1\/8 players\)/);
        await guest.call('lobby.chat', { text: 'hello through the DHT' });
        await log.line(/\[chat\] .*: hello through the DHT/);
        // The dedicated host plays no seat, so a round needs a second guest. Both ready: a round starts; the guest moves
        // and the host's snapshots come back.
        expect((await second.joinAsPlayer(code)).view?.status).toBe('in-room');
        await Promise.all([guest, second].map((peer) => peer.call('lobby.setReady', { ready: true })));
        await log.line(/Everyone is ready: starting a round/);
        await playInRound(guest);
        expect(await interrupt(cli), log.text()).toBe(0);
        expect(log.text()).toMatch(/Room closed/);
      },
      240_000,
    );

    it.concurrent(
      'plain ↔ randomizing: a guest behind `masquerade random` joins',
      async () => {
        const { cli, log, code } = await openCliRoom('randomHost', 'DHT random room', 'home');
        const guest = await guestIn('randomGuest');
        const joined = await guest.joinAsPlayer(code);
        console.log(`[dht lab] plain ↔ randomizing: joined in ${Math.round(joined.ms)} ms (issue: < 10 s)`);
        expect(joined.refusals).toEqual([]);
        expect(joined.view?.status).toBe('in-room');
        expect(seatOf(joined.view, joined.view?.you)?.path).toBe('dht');
        expect(await interrupt(cli), log.text()).toBe(0);
      },
      240_000,
    );

    it.concurrent(
      'randomizing ↔ randomizing: the guest is told plainly that a relay is needed',
      async () => {
        const { cli, log, code } = await openCliRoom('bothRandomHost', 'DHT unreachable room', 'rhome');
        const guest = await guestIn('bothRandomGuest');
        const started = performance.now();
        const result = (await guest.tryCall('lobby.joinByCode', { code })) as Failure;
        const ms = Math.round(performance.now() - started);
        console.log(
          `[dht lab] randomizing ↔ randomizing: refused in ${ms} ms (issue: < 15 s): ${result.error?.message}`,
        );
        expect(result.ok).toBe(false);
        expect(result.error?.detail).toBe('relay-needed');
        expect(result.error?.message).toContain('a relay is needed');
        expect((await guest.call<LobbyView>('lobby.get')).status).not.toBe('in-room');
        expect(await interrupt(cli), log.text()).toBe(0);
      },
      240_000,
    );

    it.skipIf(noRebind).concurrent(
      `a guest keeps its seat when its router forgets every mapping (ports, then address)${noRebind ? ` (skipped: ${noRebind})` : ''}`,
      async () => {
        const host = await RoomPeer.start(lab, 'rebindHost', null, {
          logs: true,
          network: { ...dhtNetwork('rebindHost'), routerGateways: [lab.gateways.home!] },
        });
        peers.push(host);
        const guest = await guestIn('rebindGuest', true);
        const hosted = await host.command('lobby.host', { roomName: 'DHT rebind room', reach: 'internet' });
        const code = hosted.internet?.code ?? '';
        expect(code).toMatch(/^NET-K/);
        const joined = await guest.joinAsPlayer(code);
        expect(joined.view?.status).toBe('in-room');
        const you = joined.view!.you!;
        await guest.call('lobby.setReady', { ready: true });
        const before = seatOf(await host.until((v) => seatOf(v, you)?.ready === true, 'the guest ready'), you)!;
        expect(before.path).toBe('dht');
        const router = new RebindableRouter(lab, 'rbAway');
        let nextWan = 120;
        for (const move of ['ports', 'address'] as const) {
          const movedAt = Date.now();
          if (move === 'ports') router.movePorts();
          else router.moveAddress(`203.0.113.${nextWan++}`);
          // A line typed after the move reaches the host (carried over, or sent once the guest is back).
          const text = `after the ${move} move`;
          const deadline = Date.now() + 60_000;
          for (;;) {
            const sent = await guest.tryCall('lobby.chat', { text });
            if (sent.ok) break;
            if (Date.now() > deadline) throw new Error(`the guest could not chat after the ${move} move`);
            await new Promise((r) => setTimeout(r, 500));
          }
          const after = await host.until(
            (v) => v.state?.chat.some((l) => l.text === text) === true,
            `the line typed after the ${move} move, at the host`,
            60_000,
          );
          // The same seat, with no click, still on the DHT: id, name, colour, ready; the guest sees itself there too.
          expect(seatOf(after, you)).toMatchObject({
            id: before.id,
            name: before.name,
            colour: before.colour,
            ready: true,
            path: 'dht',
          });
          const mine = await guest.call<LobbyView>('lobby.get');
          expect(mine.status).toBe('in-room');
          expect(mine.you).toBe(you);
          const back = guest.logs.find((l) => l.at >= movedAt && /back in the room|path back|reopened/.test(l.line));
          console.log(
            `[dht lab] rebinding (${move}): the line arrived ${Date.now() - movedAt} ms after the move; ` +
              `${back ? back.line : 'the stream carried on'}; seat ${before.id} ${before.name} kept`,
          );
        }
      },
      240_000,
    );

    it.concurrent(
      'a flood of DHT connects to the room key: a real guest still joins, the host runs on',
      async () => {
        const { cli, log, code } = await openCliRoom('floodHost', 'DHT flood room', 'home');
        // 300 connects at most, 32 pending or open at once, none started after 20 s; the guest knocks once the first
        // of them is in.
        const flood = { publicKey: keyOf(code), connections: 300, atOnce: 32, withinMs: 20_000 };
        const stranger = strangerIn('stranger', flood);
        const guest = await guestIn('floodGuest');
        await stranger.next('opened', 90_000);
        const joined = await guest.joinAsPlayer(code);
        const flooded = await stranger.next('flooded', 90_000);
        stranger.stop();
        console.log(
          `[dht lab] flood: ${flooded.started} connects from a stranger (${flooded.opened} opened) in ${flooded.ms} ms; ` +
            `a guest joined in ${Math.round(joined.ms)} ms (refusals: ${JSON.stringify(joined.refusals)})`,
        );
        expect(joined.view?.status).toBe('in-room');
        // The flood's one address got its burst, then a connect a second (DHT_CONNECTS_PER_ADDRESS), not every token
        // the room's budget gave back. A count against the flood's own span: each stream it saw open was admitted
        // within that span, so a busy machine only lengthens the span and loosens the bound (+1: the span is rounded).
        const { burst, perSecond } = DHT_CONNECTS_PER_ADDRESS;
        expect(flooded.opened).toBeLessThanOrEqual(burst + Math.ceil((flooded.ms / 1000) * perSecond) + 1);
        expect(cli.exitCode).toBeNull();
        await log.line(/joined as player \d+ \(1\/8 players\)/);
        expect(await interrupt(cli), log.text()).toBe(0);
      },
      240_000,
    );
  },
);

/** The room key a NET-K… code carries, as a stranger reads it off an invite it saw. */
function keyOf(code: string): string {
  const read = readInternetCode(code);
  if (!read.ok || read.invite.kind !== 'dht') throw new Error(`not a DHT code: ${code}`);
  return read.invite.code.publicKey;
}
