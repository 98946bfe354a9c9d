import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Channel, Server } from '../../main/net/index';
import { LobbyMessage } from '../../shared/lobby/lobbyMessages';
import { LOBBY_PROTOCOL_VERSION } from '../../shared/lobby/lobbyState';
import { ReservedType } from '../../main/net/v1/protocol';
import type { LobbyHostOptions } from '../../main/lobby/host/lobbyHost';
import { LobbyGuest } from '../../main/lobby/lobbyGuest';
import { LobbyJoinError } from '../../main/lobby/lobbyErrors';
import { nameSkeleton } from '../../main/lobby/host/nameSkeleton';
import { silentLogger } from '../../main/base/logger';
import { createLobbyState } from '../../shared/lobby/lobbyState';
import { hasHiddenCharacters } from '../../shared/text/normalizeText';
import {
  connectFloodSources,
  loopbackHosts,
  startFlood,
  type Flood,
  type FloodResult,
} from '../support/labFloodWorker';
import { GaleReferencePeer, hasPython } from '../support/galeReferencePeer';
import { lobbyProbe } from '../support/labLobbyPeer';
import { settledHeapUsed } from '../support/labProcessGuard';
import { rawPeer, type RawPeer } from '../support/labRawPeer';
import { startTapRelay } from '../support/labTapRelay';
import { freeUdpPort, loopbackNetwork } from '../support/loopbackNetwork';
import { testBackend } from '../support/testBackend';
import { sleep, waitFor } from '../support/waitFor';
import { loopbackGuest, loopbackHost } from '../support/loopbackRoom';

// The attacks of issue 16 that go above the transport, against a real lobby host on 127.0.0.1 (discovery off, or
// on a free port searched via 127.255.255.255 only). Every loop is bounded in count and time. Each test adds a
// row to the figures table printed at the end.

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const figures: Array<{ attack: string; outcome: string }> = [];
afterAll(() => {
  if (figures.length === 0) return;
  const width = Math.max(...figures.map((f) => f.attack.length));
  const lines = figures.map((f) => `  ${f.attack.padEnd(width)}  ${f.outcome}`);
  console.log(`[lab hostile lobby] figures\n  ${'attack'.padEnd(width)}  outcome\n${lines.join('\n')}`);
});

const PASSWORD = 'hunter2-lab-secret';

const host = (options: Partial<LobbyHostOptions> = {}) => loopbackHost(cleanups, options);

const join = (port: number, name: string, password?: string) =>
  loopbackGuest(cleanups, port, name, password !== undefined ? { password } : {});

/**
 * Seconds a guest may take to get in under a flood. How long it does take is the machine's (a host that reads
 * slower than the flood arrives queues every request behind it: 0.3–1.5 s here idle, over 5 s with the other core
 * busy), so it is reported in the figures and measured in `npm run bench` (joinFlood), not asserted; the bound
 * only has to end a join that would never succeed. The flood runs until both guests are in, so they joined under it.
 */
const FLOOD_JOIN_TIMEOUT = 20;

/**
 * Rounds of the flood (1,024 forged requests each) the host must take before the flood stops: ~3 s at the nominal
 * 20k/s. Counted, not timed, so a slow machine floods for longer rather than less.
 */
const FLOOD_ROUNDS = 64;
/** The flood's own bound: it ends by itself after this many rounds, whatever happens to the test. */
const FLOOD_MAX_ROUNDS = 2000;

/** A v1 guest in the room: the Python gale.net stand-in saying hello (when python3 exists), else our Client on v1. */
async function v1Guest(port: number, name: string, timeout = 2): Promise<{ kind: string; welcomed: Promise<unknown> }> {
  if (hasPython) {
    const py = await GaleReferencePeer.client('127.0.0.1', port);
    cleanups.push(() => py.stop());
    const welcomed = (async () => {
      await py.waitForEvent('connected', timeout * 1000);
      py.send(LobbyMessage.HELLO, { v: LOBBY_PROTOCOL_VERSION, name, colour: '#3ddc97' }, Channel.RELIABLE_ORDERED);
      return py.waitFor(() => py.messages(LobbyMessage.WELCOME)[0], timeout * 1000, 'the welcome');
    })();
    return { kind: 'Python stand-in', welcomed };
  }
  const welcomed = LobbyGuest.join({
    host: '127.0.0.1',
    port,
    playerName: name,
    colour: '#3ddc97',
    timeout,
    transport: { native: false },
  });
  welcomed.then(
    (g) => cleanups.push(() => g.leave()),
    () => undefined,
  );
  return { kind: 'TS Client, native off', welcomed };
}

/** 64 confirmed v1 peers from 64 loopback addresses: they echo the token and answer pings, but never say hello. */
async function silentConnectors(port: number): Promise<RawPeer[]> {
  const silent: RawPeer[] = [];
  for (const address of loopbackHosts(64, 9)) {
    const peer = await rawPeer(port, address, 64);
    cleanups.push(() => peer.close());
    silent.push(peer);
  }
  await Promise.all(silent.map((p) => p.handshake(3000, true)));
  return silent;
}

describe('hostile lobby (lab)', () => {
  it('a 20k/s spoofed connect flood (v1 and native, 1,024 sources) plus 64 silent connectors: guests still get in', async () => {
    // A hello deadline far above the join's time: under the flood a real guest's hello can wait seconds in the
    // host's queue, and the default 3 s would end its session as a silent connector's ("The host closed the room").
    const h = await host({ capacity: 8, helloTimeout: 30 });
    const heapBefore = await settledHeapUsed();
    // 64 silent connectors (closed by the cleanups) that never say hello.
    await silentConnectors(h.port);
    // 1,024 forged sources in 16 /24s of 127.0.0.0/8, half v1 requests and half native offers, each sending as fast
    // as a worker thread manages about 20 a second.
    const sources = connectFloodSources(1024, 40);
    // 30 ms between rounds plus the time to send one (~15 ms here): about 22k requests a second.
    let flood: Flood | undefined = await startFlood(h.port, sources, 30, FLOOD_MAX_ROUNDS);
    cleanups.push(() => flood?.terminate());
    const floodStarted = performance.now();
    await waitFor(() => flood!.rounds() >= 8, 20_000, 'the flood in full swing');
    const nativeStarted = performance.now();
    const guest = await loopbackGuest(cleanups, h.port, 'Gus', { timeout: FLOOD_JOIN_TIMEOUT });
    const nativeMs = performance.now() - nativeStarted;
    const v1Started = performance.now();
    const v1 = await v1Guest(h.port, 'Vic', FLOOD_JOIN_TIMEOUT);
    await v1.welcomed;
    const v1Ms = performance.now() - v1Started;
    // FLOOD_ROUNDS rounds in all, then the heap is measured while it still runs.
    await waitFor(() => flood!.rounds() >= FLOOD_ROUNDS, 60_000, `${FLOOD_ROUNDS} rounds of flood`);
    const peersDuring = h.transport.getPeers().length;
    const heapAfter = await settledHeapUsed();
    let result: FloodResult;
    try {
      result = await flood.stop();
    } finally {
      flood = undefined;
    }
    const floodSec = (performance.now() - floodStarted) / 1000;
    const rate = (result.rounds * sources.length) / floodSec;
    const drops = h.transport.counters.dropped;
    const replies = result.replies.flat();
    const accepts = replies.filter((r) => r.type === ReservedType.CONNECT_ACCEPTED).length;
    const challenges = replies.filter((r) => r.type === ReservedType.NATIVE_CHALLENGE).length;
    await waitFor(() => h.state.players.length === 3, 5000, 'both guests in the room');
    expect(h.state.players.map((p) => p.name)).toEqual(['Hana', 'Gus', 'Vic']);
    await waitFor(() => guest.state.players.length === 3, 5000, 'the native guest to see the v1 guest');
    // Both guests got in while the flood still ran (it was stopped, not spent), after at least FLOOD_ROUNDS rounds.
    // Its rate is the machine's (~22k/s idle): printed, not asserted.
    expect(result.rounds).toBeGreaterThanOrEqual(FLOOD_ROUNDS);
    expect(result.rounds).toBeLessThan(FLOOD_MAX_ROUNDS);
    // Forged sources never got a peer: the transport holds the two guests and at most the pre-lobby budget.
    expect(peersDuring).toBeLessThanOrEqual(2 + 8);
    expect(drops['prefix-limited'] + drops['source-limited']).toBeGreaterThan(0);
    expect(accepts + challenges).toBeGreaterThan(0);
    const heapMb = heapBefore !== undefined && heapAfter !== undefined ? (heapAfter - heapBefore) / 1e6 : undefined;
    if (heapMb !== undefined) expect(heapMb).toBeLessThan(20);
    figures.push({
      attack: `spoofed connect flood ${(rate / 1000).toFixed(1)}k/s, 1,024 sources + 64 silent`,
      outcome:
        `native guest in ${nativeMs.toFixed(0)} ms, v1 guest (${v1.kind}) in ${v1Ms.toFixed(0)} ms; ` +
        `${peersDuring} transport peers; heap ${heapMb === undefined ? 'n/a' : `${heapMb >= 0 ? '+' : ''}${heapMb.toFixed(1)} MB`}; ` +
        `${accepts} v1 accepts, ${challenges} challenges reached the forged sources; limited: ` +
        `${drops['source-limited']} per address, ${drops['prefix-limited']} per /24`,
    });
  }, 120_000);

  it('64 silent connectors that keep reconnecting: a guest with the password gets in before any of them expires', async () => {
    // A silent connector holds its pending slot until this hello deadline: a guest that got in sooner got in
    // because the desk evicted one for it, not because one expired, however slow the machine.
    const HELLO_DEADLINE_SEC = 30;
    const h = await host({ capacity: 4, password: PASSWORD, helloTimeout: HELLO_DEADLINE_SEC });
    const heapBefore = await settledHeapUsed();
    // Confirmed v1 peers from 64 addresses: they answer pings, so the transport keeps them, but never say hello.
    const silent = await silentConnectors(h.port);
    let reconnecting = true;
    const churn = (async () => {
      // Every connector asks again every 100 ms (640 connects a second), for at most 5 s.
      for (let round = 0; reconnecting && round < 50; round++) {
        for (const p of silent) p.send({ type: ReservedType.CONNECT_REQUEST, token: 0n });
        await sleep(100);
      }
    })();
    cleanups.push(async () => {
      reconnecting = false;
      await churn;
    });
    await sleep(300);
    const started = performance.now();
    const guest = await loopbackGuest(cleanups, h.port, 'Gus', { password: PASSWORD, timeout: HELLO_DEADLINE_SEC / 2 });
    const joinMs = performance.now() - started;
    const stats = h.stats();
    reconnecting = false;
    await churn;
    const heapAfter = await settledHeapUsed();
    expect(guest.state.players.map((p) => p.name)).toEqual(['Hana', 'Gus']);
    expect(stats.expired).toBe(0);
    expect(stats.evicted).toBeGreaterThan(0);
    expect(stats.pending).toBeLessThanOrEqual(8);
    expect(h.transport.getPeers().length).toBeLessThanOrEqual(4 + 8);
    const heap =
      heapBefore !== undefined && heapAfter !== undefined
        ? `, heap ${((heapAfter - heapBefore) / 1e6).toFixed(1)} MB`
        : '';
    figures.push({
      attack: '64 silent connectors, reconnecting',
      outcome: `guest joined in ${joinMs.toFixed(0)} ms; ${stats.pending} pending held, ${stats.evicted} evicted${heap}`,
    });
  }, 20_000);

  it('password guessing is throttled per address', async () => {
    const h = await host({ password: PASSWORD });
    const started = performance.now();
    let attempts = 0;
    let told = '';
    // A fresh connection per guess, as a guessing script would: hello, then a random proof if challenged. At least
    // 4 s and 20 guesses (a busy machine guesses slower), at most 30 s and 2,000.
    const elapsed = () => performance.now() - started;
    while (attempts < 2000 && elapsed() < 30_000 && (elapsed() < 4000 || attempts < 20)) {
      attempts += 1;
      const probe = await lobbyProbe(h.port);
      probe.say('lobby.hello', { v: LOBBY_PROTOCOL_VERSION, name: 'Eve', colour: '#3ddc97' });
      const answer = await probe.next(['lobby.challenge', 'lobby.rejected']);
      if (answer.type === 'lobby.challenge') {
        // A made-up CPace share and tag: the check fails, and the try counts, as a wrong password's does.
        const random = (size: number) =>
          Buffer.from(crypto.getRandomValues(new Uint8Array(size))).toString('base64url');
        probe.say('lobby.proof', { share: random(49), tag: random(64) });
        await probe.next(['lobby.rejected']);
      } else {
        told = String(answer.payload.message);
      }
      await probe.close();
    }
    const seconds = (performance.now() - started) / 1000;
    const checked = h.stats().passwordChecks;
    // 5 free, then one after 1 s, one after 2 s more, 4 s more…: 5 + log2(seconds + 1) guesses checked, however fast
    // the script (7 in 4 s); one more for a guess landing on a wait's last millisecond.
    expect(checked).toBeLessThanOrEqual(5 + Math.floor(Math.log2(seconds + 1)) + 1);
    expect(attempts).toBeGreaterThan(checked);
    expect(told).toMatch(/^Too many tries, wait \d+ s\.$/);
    figures.push({
      attack: 'password guessing, one address',
      outcome: `${attempts} tries in ${seconds.toFixed(1)} s, ${checked} checked (${(checked / seconds).toFixed(1)}/s), rest told "${told}"`,
    });
  }, 20_000);

  it('the password never crosses the wire: captured datagrams hold no trace of it', async () => {
    const h = await host({ password: PASSWORD });
    const relay = await startTapRelay(h.port);
    cleanups.push(() => relay.close());
    // What crosses the wire is the point here, not how soon: the join's own bound (loopbackGuest's 2 s) is an idle
    // machine's, so it gets the lab's (labNetwork's joinTimeoutSec).
    const guest = await loopbackGuest(cleanups, relay.port, 'Gus', { password: PASSWORD, timeout: 10 });
    expect(guest.state.passwordProtected).toBe(true);
    relay.capturing = false;
    const all = [...relay.captured.upstream, ...relay.captured.downstream].map((d) => Buffer.from(d));
    const needles = [
      Buffer.from(PASSWORD, 'utf8'),
      Buffer.from(PASSWORD, 'utf16le'),
      Buffer.from(Buffer.from(PASSWORD).toString('base64')),
      Buffer.from(Buffer.from(PASSWORD).toString('base64url')),
      Buffer.from(Buffer.from(PASSWORD).toString('hex')),
    ];
    const found = all.filter((d) => needles.some((n) => d.includes(n)));
    expect(all.length).toBeGreaterThan(4);
    expect(found).toEqual([]);
    figures.push({
      attack: 'sniffing the join',
      outcome: `${all.length} datagrams (${all.reduce((n, d) => n + d.length, 0)} B) captured, 0 contain the password`,
    });
  }, 30_000);

  it('every impersonation name from the issue is refused or made distinct', async () => {
    const h = await host({ capacity: 16 });
    const attempts = [
      'Hana', // the host's exact name
      'Ha\u0007na', // a control character
      '\u00a0Hana\u00a0', // NBSP
      'Hаnа', // Cyrillic а
      'H\u200bana', // zero width
      'Hana\u202e', // bidi override
      '\u200b', // invisible
      '\u3164', // Hangul filler
      'Alice (Host)',
      'Alice', // a fair name, taken next by a look-alike
      '\u0410lice', // Cyrillic А
    ];
    let refused = 0;
    for (const name of attempts) {
      try {
        await join(h.port, name);
      } catch (error) {
        expect(error).toBeInstanceOf(LobbyJoinError);
        expect((error as LobbyJoinError).code).toBe('invalid-name');
        refused += 1;
      }
    }
    const names = h.state.players.map((p) => p.name);
    expect(new Set(names.map(nameSkeleton)).size).toBe(names.length);
    expect(names.filter(hasHiddenCharacters)).toEqual([]);
    expect(names.filter((n) => /\(host\)/i.test(nameSkeleton(n)))).toEqual([]);
    expect(refused).toBe(2);
    const g = await join(h.port, 'Rex');
    g.chat('hi\u202egnp.exe');
    await waitFor(() => h.state.chat.length === 1, 2000, 'the chat line');
    expect(h.state.chat[0]?.text).toBe('hignp.exe');
    figures.push({
      attack: 'impersonation names',
      outcome: `${attempts.length} tried: ${refused} refused, ${attempts.length - refused} made distinct (${names.slice(1).join(' | ')})`,
    });
  }, 30_000);

  it('a malicious host’s oversize room is refused with "The host sent an invalid room."', async () => {
    const server = await Server.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => server.close());
    const fair = createLobbyState(
      { roomName: 'Trap', capacity: 8, passwordProtected: false },
      { name: 'Mal', colour: '#a3e048' },
    );
    const player = (id: number, colour = '#3ddc97') => ({
      id,
      name: `P${id}`,
      colour,
      ready: false,
      host: false,
      pingMs: null,
    });
    let mode: 'huge' | 'bounds' = 'huge';
    let linkRefused = '';
    server.onMessage('lobby.hello', (peer) => {
      if (mode === 'huge') {
        // The issue's 3.35 MB view: 12,000 players and a 1,000,000-character room name.
        const huge = {
          ...fair,
          roomName: 'x'.repeat(1_000_000),
          capacity: -1,
          players: Array.from({ length: 12_000 }, (_, i) => player(i)),
        };
        try {
          server.sendTo(peer.id, 'lobby.welcome', { you: peer.id, state: huge }, Channel.RELIABLE_ORDERED);
        } catch (error) {
          linkRefused = (error as Error).name;
        }
        return;
      }
      const bad = {
        ...fair,
        roomName: 'x'.repeat(5000),
        capacity: -1,
        players: [fair.players[0]!, ...Array.from({ length: 40 }, (_, i) => player(i + 1, 'url(javascript:alert(1))'))],
      };
      server.sendTo(peer.id, 'lobby.welcome', { you: 1, state: bad }, Channel.RELIABLE_ORDERED);
    });
    await expect(join(server.port, 'Gus')).rejects.toMatchObject({ code: 'timeout' });
    expect(linkRefused).toBe('PayloadTooLargeError');
    mode = 'bounds';
    await expect(join(server.port, 'Gus')).rejects.toMatchObject({
      code: 'invalid-room',
      message: 'The host sent an invalid room.',
    });
    figures.push({
      attack: 'malicious host state',
      outcome:
        '3.35 MB view: refused by the link (256 KiB cap); 40 players, capacity -1, url() colours: "The host sent an invalid room."',
    });
  }, 20_000);

  it('a chat flood is capped at 5 lines per 5 s a player, the renderer sees at most one lobby.changed a frame, CPU stays low', async () => {
    const discoveryPort = await freeUdpPort();
    const backend = await testBackend(cleanups, { network: loopbackNetwork(discoveryPort), logger: silentLogger });
    let changed = 0;
    let changedBytes = 0;
    backend.gateway.subscribe((name, payload) => {
      if (name !== 'lobby.changed') return;
      changed += 1;
      changedBytes += JSON.stringify(payload).length;
    });
    let serviceChanges = 0;
    backend.lobby.onChange(() => (serviceChanges += 1));
    await backend.lobby.host({ roomName: 'Flood' });
    const view = backend.lobby.view();
    const session = backend.lobby.session();
    if (session?.role !== 'host') throw new Error('not hosting');
    const flooders: LobbyGuest[] = [];
    for (let i = 0; i < 6; i++) flooders.push(await join(view.port!, `Flood ${i}`));
    await sleep(50);
    changed = 0;
    changedBytes = 0;
    serviceChanges = 0;
    const PER_GUEST = 1000;
    const LINES = PER_GUEST * flooders.length;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < PER_GUEST; i++) {
      for (const f of flooders) f.transport.send('lobby.chat', { text: `spam ${i}` }, Channel.RELIABLE_ORDERED);
    }
    const kept = 5 * flooders.length;
    await waitFor(() => session.host.stats().droppedChat === LINES - kept, 15_000, 'the flood to be handled');
    const wallMs = performance.now() - started;
    await sleep(50); // the last frame's view
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    expect(session.host.state.chat).toHaveLength(kept);
    expect(serviceChanges).toBeGreaterThanOrEqual(kept);
    expect(changed).toBeLessThanOrEqual(Math.ceil((wallMs + 50) / 16) + 2);
    // Senders and host share this process: all of them together stay far below a core for the whole flood.
    expect(cpuMs / LINES).toBeLessThan(0.5);
    figures.push({
      attack: `chat flood, ${flooders.length} guests x ${PER_GUEST} lines`,
      outcome:
        `${kept} kept, ${LINES - kept} dropped in ${wallMs.toFixed(0)} ms; ${serviceChanges} room changes reached the ` +
        `renderer as ${changed} lobby.changed (${(changedBytes / 1e3).toFixed(0)} kB); CPU ${cpuMs.toFixed(0)} ms for ` +
        `senders and host (${((cpuMs / LINES) * 1000).toFixed(0)} µs a line)`,
    });
  }, 30_000);
});
