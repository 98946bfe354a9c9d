import { afterAll, describe, expect, it } from 'vitest';
import { Client, Server, type ServerOptions } from '../../main/net/index';
import { TrafficCounters } from '../../main/net/v1/stats';
import { ReservedType } from '../../main/net/v1/protocol';
import type { Link } from '../../main/net/v1/link';
import type { KitProtocol } from '../support/endpoints';
import { seededRandom } from '../support/seededRandom';
import { avoidToken, mutate, MutationKind } from '../support/labMutator';
import { mutateNative, NativeMutationKind, resealed, withToken } from '../support/labNativeMutator';
import type { NativeConnection } from '../../main/net/native/nativeConnection';
import { startTapRelay, type TapRelay } from '../support/labTapRelay';
import { pumpFuzz, type FuzzTarget } from '../support/labFuzzPump';
import { fuzzStreams, strangerSockets } from '../support/labFuzzStreams';
import { boundViolations, clientConnection, connectionSizes } from '../support/labInspect';
import { captureProcessErrors, settledHeapUsed } from '../support/labProcessGuard';
import { RespawningSession } from '../support/labRespawningSession';
import { waitFor } from '../support/waitFor';

// Nightly: LAB_FUZZ_COUNT=1000000. CI default: 100,000 per protocol (a few seconds each). At least 10,000.
const COUNT = Math.max(10_000, Number(process.env.LAB_FUZZ_COUNT ?? 100_000));
const SEED = Number(process.env.LAB_FUZZ_SEED ?? 1);
const MAX_PEERS = 8;
const MAX_QUEUED = 65_536;
/** Heap growth allowed across the fuzz: the ordered receivers of the fuzzed session may each hold a full window. */
const HEAP_BOUND = 32 * 1024 * 1024;
/** Native: the only way valid-token garbage may end session B (a reliable message that cannot be rebuilt). */
const REASSEMBLY_FAILURE = /^(disconnected by the other side: )?reliable message could not be reassembled \(/;

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Sums the counters of several connections. */
function total(links: readonly (Link | undefined)[]) {
  // Plain sums, not a TrafficCounters: its drops are counted through drop(), which keeps the total too.
  const sum = { messagesDelivered: 0, duplicatesReceived: 0, dropped: new TrafficCounters().dropped };
  for (const c of links) {
    if (!c) continue;
    sum.messagesDelivered += c.counters.messagesDelivered;
    sum.duplicatesReceived += c.counters.duplicatesReceived;
    for (const [reason, n] of Object.entries(c.counters.dropped)) sum.dropped[reason as keyof typeof sum.dropped] += n;
  }
  return sum;
}

describe.each(['v1', 'native'] as const)(
  'fuzz (%s): captured traffic, mutated, at a live Server and Client',
  (protocol: KitProtocol) => {
    const native = protocol === 'v1' ? ({ native: false } as const) : {};
    const isNative = protocol === 'native';

    it(
      `${COUNT.toLocaleString('en-US')} datagrams: nothing escapes, state stays bounded, the session keeps working`,
      async () => {
        const guard = captureProcessErrors();
        cleanups.push(guard.stop);
        const callbackErrors: unknown[] = [];
        const endpoint = { ...native, heartbeatInterval: 0.2, onCallbackError: (e: unknown) => callbackErrors.push(e) };
        const serverOptions: ServerOptions = { port: 0, host: '127.0.0.1', maxPeers: MAX_PEERS, ...endpoint };
        const server = await Server.listen(serverOptions);
        cleanups.push(() => server.close());
        const relayA: TapRelay = await startTapRelay(server.port);
        cleanups.push(relayA.close);
        const clientA = new Client(endpoint);
        cleanups.push(() => clientA.close());
        await clientA.connect('127.0.0.1', relayA.port);
        // B takes valid-token garbage. Native may end it (a reliable message that cannot be rebuilt): it then
        // starts over behind a fresh relay. v1 has no such rule, so there B must simply survive.
        const b = new RespawningSession(server, endpoint, isNative ? Math.ceil(COUNT / 100) : 0);
        cleanups.push(() => b.close());
        await b.start();
        expect([clientA.protocol, b.client!.protocol]).toEqual([protocol, protocol]);
        const tokenA = clientA.token!;
        const idA = clientA.peerId!;
        const idB = b.peerId!;
        let disconnectsA = 0;
        server.onDisconnect((p) => p.id === idA && disconnectsA++);
        // Nothing a stranger sends, replays included, may move session A (it never changes address).
        let migrationsA = 0;
        server.onMigrate((p) => p.id === idA && migrationsA++);
        clientA.onDisconnect(() => disconnectsA++);
        const a = fuzzStreams(server, clientA, () => idA);
        const bStreams = fuzzStreams(server, b.client!, () => idB);

        // Capture: real sessions with every kind of datagram (handshake, pings, acks, all channels; native:
        // fragments of large messages too).
        const relayB = b.relay!;
        a.send(0, 100);
        bStreams.send(0, 100);
        if (isNative) {
          a.sendLarge(3, 5000);
          bStreams.sendLarge(3, 5000);
        }
        await waitFor(() => a.complete(100) && bStreams.complete(100), 15_000, 'capture traffic');
        await new Promise((r) => setTimeout(r, 500));
        relayA.capturing = relayB.capturing = false;
        const corpusA = [...relayA.captured.upstream, ...relayA.captured.downstream];
        const corpusB = [...relayB.captured.upstream, ...relayB.captured.downstream];
        const corpusAB = [...corpusA, ...corpusB];
        expect(corpusA.length).toBeGreaterThan(isNative ? 100 : 300);

        const heapBefore = await settledHeapUsed();
        const random = seededRandom(SEED);
        const keepB = { allowType: (t: string) => t !== ReservedType.DISCONNECT };
        const mutateAny = (corpus: Uint8Array[], keep = false) =>
          isNative ? mutateNative(corpus, random, { keepSession: keep }) : mutate(corpus, random, keep ? keepB : {});
        // Session A only gets what must not disturb it: wrong tokens, or exact replays in their own direction
        // (duplicates, and acks of long-acknowledged sequences): a reflected datagram looks like a real one.
        const wrongTokenA = (corpus: Uint8Array[]) => () => {
          const m = mutateAny(corpus);
          return m.kind === MutationKind.REPLAY ? m : { kind: m.kind, datagram: avoidToken(m.datagram, tokenA) };
        };
        // Session B gets valid-token garbage (native: stamped with the current session's token), never a goodbye.
        const validTokenB = () => {
          const m = mutateAny(corpusB, true);
          const token = b.token;
          if (!isNative || m.kind === NativeMutationKind.NATIVE_TOKEN || token === undefined) return m;
          return { kind: m.kind, datagram: withToken(m.datagram, token) };
        };
        const sockets = await strangerSockets(12, server.port, cleanups);
        const fromStranger = (d: Uint8Array) => sockets[Math.floor(random() * sockets.length)]!.send(d);
        // While B starts over, its share goes to strangers instead (a half-open session must not be spoofed into).
        const toB = (send: (relay: TapRelay, d: Uint8Array) => void) => (d: Uint8Array) =>
          b.connected ? send(b.relay!, d) : fromStranger(d);
        // Native: what B's ends get is sealed again after mutation with the sender's own keys (the client's to the
        // server, the server peer's to the client), so it passes the tag check and reaches the frame parser.
        // Strangers and session A get mutated datagrams under their old tags: those test the tag check.
        const sealerOf = (link: Link | undefined) => (link as NativeConnection | undefined)?.sealer;
        // Just after B starts over, its client may be connected before the server's new peer is found under
        // b.peerId (or the other way round): with no sealer at hand the datagram goes to a stranger's socket, so
        // B's ends only ever get datagrams resealed under the current keys.
        const sealedBy = (link: () => Link | undefined) => (d: Uint8Array) => {
          if (!isNative) return d;
          const sealer = sealerOf(link());
          return sealer ? resealed(d, sealer) : undefined;
        };
        const asClientB = sealedBy(() => b.client && clientConnection(b.client));
        const asServerB = sealedBy(() => server.getPeer(b.peerId ?? -1)?.connection);
        const orStranger = (d: Uint8Array | undefined, inject: (d: Uint8Array) => void, raw: Uint8Array) =>
          d ? inject(d) : fromStranger(raw);
        const targets: FuzzTarget[] = [
          { name: 'server from strangers', weight: 35, next: () => mutateAny(corpusAB), send: fromStranger },
          {
            name: 'server as A, wrong token',
            weight: 15,
            next: wrongTokenA(relayA.captured.upstream),
            send: (d) => relayA.injectToServer(d),
          },
          {
            name: 'client A, wrong token',
            weight: 15,
            next: wrongTokenA(relayA.captured.downstream),
            send: (d) => relayA.injectToClient(d),
          },
          {
            name: 'server as B',
            weight: 17.5,
            next: validTokenB,
            send: toB((r, d) => orStranger(asClientB(d), (x) => r.injectToServer(x), d)),
          },
          {
            name: 'client B',
            weight: 17.5,
            next: validTokenB,
            send: toB((r, d) => orStranger(asServerB(d), (x) => r.injectToClient(x), d)),
          },
        ];
        let maxPeersSeen = 0;
        const violations: string[] = [];
        let sentA = 100;
        const checkBounds = () => {
          a.send(sentA, sentA + 5); // session A keeps talking, reliably, all through the fuzz
          sentA += 5;
          maxPeersSeen = Math.max(maxPeersSeen, server.getPeers().length);
          const connections = [...server.getPeers().map((p) => p.connection), b.client && clientConnection(b.client)];
          for (const c of connections) if (c) violations.push(...boundViolations(connectionSizes(c), MAX_QUEUED));
        };
        // Every client B ever had counts (a respawned one replaces the last).
        let bReceivedBefore = 0;
        const bReceived = () => bReceivedBefore + (b.client?.counters.datagramsReceived ?? 0);
        let lastB = b.client;
        const received = () => {
          if (b.client !== lastB) {
            bReceivedBefore += lastB?.counters.datagramsReceived ?? 0;
            lastB = b.client;
          }
          return server.counters.datagramsReceived + clientA.counters.datagramsReceived + bReceived();
        };
        const before = received();
        const started = performance.now();
        const cpu = process.cpuUsage();
        const report = await pumpFuzz(targets, COUNT, random, received, { check: checkBounds });
        const seconds = (performance.now() - started) / 1000;
        const cpuUsed = process.cpuUsage(cpu);
        const cpuSeconds = (cpuUsed.user + cpuUsed.system) / 1e6;
        checkBounds();
        await b.settled();
        const heapAfter = await settledHeapUsed();

        // Session A, which talked throughout, delivered everything in order and exactly once, and still does.
        a.send(sentA, sentA + 100);
        const sent = sentA + 100;
        await waitFor(() => a.complete(sent), 20_000, 'session A after the fuzz');
        const upTo = (n: number) => [...Array(n).keys()];
        expect(a.got.serverO).toEqual(upTo(sent));
        expect(a.got.clientO).toEqual(upTo(sent));
        expect([...a.got.serverU].sort((x, y) => Number(x) - Number(y))).toEqual(upTo(sent));
        expect([...a.got.clientU].sort((x, y) => Number(x) - Number(y))).toEqual(upTo(sent));
        expect(clientA.state).toBe('connected');
        expect(disconnectsA).toBe(0);
        expect(migrationsA).toBe(0);

        const drops = server.counters.dropped;
        const linksA = [server.getPeer(idA)?.connection, clientConnection(clientA)];
        const bServerSide = total(b.links.filter((_, k) => k % 2 === 1));
        const bClientSide = total(b.links.filter((_, k) => k % 2 === 0));
        console.log(
          `[lab fuzz ${protocol}] ${report.sent} datagrams in ${seconds.toFixed(1)} s, CPU ${cpuSeconds.toFixed(1)} s ` +
            `(seed ${SEED}), stalls ${report.stalls}, endpoints counted ${received() - before}, peers max ${maxPeersSeen}, ` +
            `heap ${heapBefore === undefined ? 'n/a' : ((heapAfter! - heapBefore) / 1e6).toFixed(1) + ' MB'}, ` +
            `B ${b.client?.state} after ${b.closures.length} restarts\n  kinds ${JSON.stringify(report.byKind)}\n` +
            `  server drops ${JSON.stringify(drops)}\n  client A drops ${JSON.stringify(clientA.counters.dropped)}\n` +
            `  session A (connections) drops ${JSON.stringify(total(linksA).dropped)}\n` +
            `  session B (server side) delivered ${bServerSide.messagesDelivered}, dup ${bServerSide.duplicatesReceived}, ` +
            `drops ${JSON.stringify(bServerSide.dropped)}\n  session B (client side) delivered ${bClientSide.messagesDelivered}, ` +
            `drops ${JSON.stringify(bClientSide.dropped)}\n  B ended: ${JSON.stringify(countBy(b.closures))}`,
        );
        expect(guard.errors).toEqual([]);
        expect(callbackErrors).toEqual([]);
        expect(violations).toEqual([]);
        expect(maxPeersSeen).toBeLessThanOrEqual(MAX_PEERS);
        expect(report.sent).toBe(COUNT);
        // Most of the fuzz reached the endpoints' code (a few may be lost in socket buffers).
        expect(received() - before).toBeGreaterThan(COUNT * 0.9);
        const endpointReasons = isNative
          ? (['too-short', 'too-long', 'bad-token', 'unknown-source', 'bad-body'] as const)
          : (['too-short', 'too-long', 'unknown-channel', 'bad-token', 'unknown-source', 'bad-body'] as const);
        for (const reason of endpointReasons) expect(drops[reason], reason).toBeGreaterThan(0);
        // Wrong tokens aimed at A: v1 drops them at the endpoint, native in the connection (both sides).
        if (isNative) for (const c of linksA) expect(c!.counters.dropped['bad-token']).toBeGreaterThan(0);
        else expect(clientA.counters.dropped['bad-token']).toBeGreaterThan(0);
        // Native: strangers' mutations of A's captured datagrams name A's connection by its token, and fail its tag
        // check (never reaching its frames); exact replays of them are replays.
        if (isNative) {
          const aServer = server.getPeer(idA)!.connection.counters.dropped;
          expect(aServer['bad-tag']).toBeGreaterThan(0);
          expect(aServer.replayed).toBeGreaterThan(0);
        }
        // Session B took valid-token garbage into its connection code on both sides; only the protocol's own rule
        // ended it (native), and it is up at the end.
        expect(b.client?.state).toBe('connected');
        if (isNative) for (const reason of b.closures) expect(reason).toMatch(REASSEMBLY_FAILURE);
        else expect(b.closures).toEqual([]);
        const nativeReasons = ['bad-body', 'stale', 'bad-fragment'] as const;
        for (const counters of [bServerSide, bClientSide]) {
          expect(counters.dropped['out-of-window']).toBeGreaterThan(0);
          expect(counters.duplicatesReceived).toBeGreaterThan(0);
          expect(counters.messagesDelivered).toBeGreaterThan(300 + COUNT * 0.002);
          if (isNative) for (const reason of nativeReasons) expect(counters.dropped[reason], reason).toBeGreaterThan(0);
        }
        // Client B hears only the real server and garbage resealed under the server's key: every tag held.
        if (isNative) expect(bClientSide.dropped['bad-tag']).toBe(0);
        if (heapBefore !== undefined) expect(heapAfter! - heapBefore).toBeLessThan(HEAP_BOUND);
      },
      40_000 + COUNT * 0.15,
    );
  },
);

function countBy(items: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[item] = (out[item] ?? 0) + 1;
  return out;
}
