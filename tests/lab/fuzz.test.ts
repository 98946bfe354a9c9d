import { createSocket, type Socket } from 'node:dgram';
import { afterAll, describe, expect, it } from 'vitest';
import { Channel, Client, ReservedType, Server } from '../../main/net/index';
import { seededRandom } from '../support/seededRandom';
import { avoidToken, mutate, MutationKind } from '../support/labMutator';
import { startTapRelay, type TapRelay } from '../support/labTapRelay';
import { pumpFuzz, type FuzzTarget } from '../support/labFuzzPump';
import { boundViolations, clientConnection, connectionSizes } from '../support/labInspect';
import { captureProcessErrors, settledHeapUsed } from '../support/labProcessGuard';
import { waitFor } from '../support/waitFor';

// Nightly: LAB_FUZZ_COUNT=1000000. CI default: 100,000 (a few seconds). At least 10,000 so every path is hit.
const COUNT = Math.max(10_000, Number(process.env.LAB_FUZZ_COUNT ?? 100_000));
const SEED = Number(process.env.LAB_FUZZ_SEED ?? 1);
const MAX_PEERS = 8;
const MAX_QUEUED = 65_536;
/** Heap growth allowed across the fuzz: the ordered receivers of the fuzzed session may each hold a full window. */
const HEAP_BOUND = 32 * 1024 * 1024;

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function strangers(count: number, serverPort: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const s = createSocket('udp4');
    s.on('error', () => undefined);
    await new Promise<void>((r) => s.bind(0, `127.0.${i % 4}.${2 + (i % 7)}`, r));
    await new Promise<void>((r) => s.connect(serverPort, '127.0.0.1', r));
    sockets.push(s);
    cleanups.push(() => s.close());
  }
  return sockets;
}

/** Reliable traffic both ways on both channels of one session, recorded per side. */
function streams(server: Server, client: Client, peerId: () => number) {
  const got = {
    serverO: [] as unknown[],
    serverU: [] as unknown[],
    clientO: [] as unknown[],
    clientU: [] as unknown[],
  };
  server.onMessage('o', (p, m) => p.id === peerId() && got.serverO.push(m.i));
  server.onMessage('u', (p, m) => p.id === peerId() && got.serverU.push(m.i));
  client.onMessage('o', (m) => got.clientO.push(m.i));
  client.onMessage('u', (m) => got.clientU.push(m.i));
  const send = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      client.send('o', { i }, Channel.RELIABLE_ORDERED);
      client.send('u', { i }, Channel.RELIABLE_UNORDERED);
      client.send('n', { i });
      server.sendTo(peerId(), 'o', { i }, Channel.RELIABLE_ORDERED);
      server.sendTo(peerId(), 'u', { i }, Channel.RELIABLE_UNORDERED);
      server.sendTo(peerId(), 'n', { i });
    }
  };
  const complete = (n: number) => Object.values(got).every((list) => list.length >= n);
  return { got, send, complete };
}

async function connectVia(relay: TapRelay, callbackErrors: unknown[]): Promise<Client> {
  const client = new Client({ native: false, heartbeatInterval: 0.2, onCallbackError: (e) => callbackErrors.push(e) });
  cleanups.push(() => client.close());
  await client.connect('127.0.0.1', relay.port);
  return client;
}

describe('fuzz: captured traffic, mutated, at a live Server and Client on 127.0.0.1', () => {
  it(
    `${COUNT.toLocaleString('en-US')} datagrams: nothing escapes, state stays bounded, the session keeps working`,
    async () => {
      const guard = captureProcessErrors();
      cleanups.push(guard.stop);
      const callbackErrors: unknown[] = [];
      const server = await Server.listen({
        port: 0,
        host: '127.0.0.1',
        native: false,
        maxPeers: MAX_PEERS,
        heartbeatInterval: 0.2,
        onCallbackError: (e) => callbackErrors.push(e),
      });
      cleanups.push(() => server.close());
      const relayA = await startTapRelay(server.port);
      const relayB = await startTapRelay(server.port);
      cleanups.push(relayA.close, relayB.close);
      const clientA = await connectVia(relayA, callbackErrors);
      const clientB = await connectVia(relayB, callbackErrors);
      const tokenA = clientA.token!;
      const idA = clientA.peerId!;
      const idB = clientB.peerId!;
      let disconnectsA = 0;
      server.onDisconnect((p) => p.id === idA && disconnectsA++);
      clientA.onDisconnect(() => disconnectsA++);
      const a = streams(server, clientA, () => idA);
      const b = streams(server, clientB, () => idB);

      // Capture: real sessions with every kind of datagram v1 has (handshake, pings, acks, all channels).
      a.send(0, 100);
      b.send(0, 100);
      await waitFor(() => a.complete(100) && b.complete(100), 15_000, 'capture traffic');
      await new Promise((r) => setTimeout(r, 500));
      relayA.capturing = relayB.capturing = false;
      const corpusA = [...relayA.captured.upstream, ...relayA.captured.downstream];
      const corpusB = [...relayB.captured.upstream, ...relayB.captured.downstream];
      expect(corpusA.length).toBeGreaterThan(300);

      const heapBefore = await settledHeapUsed();
      const random = seededRandom(SEED);
      const keepB = { allowType: (t: string) => t !== ReservedType.DISCONNECT };
      // Session A only gets what must not disturb it: wrong tokens, or exact replays in their own direction
      // (duplicates, and acks of long-acknowledged sequences). v1 cannot tell a reflected datagram from a real one.
      const wrongTokenA = (corpus: Uint8Array[]) => () => {
        const m = mutate(corpus, random);
        return m.kind === MutationKind.REPLAY ? m : { kind: m.kind, datagram: avoidToken(m.datagram, tokenA) };
      };
      const sockets = await strangers(12, server.port);
      const targets: FuzzTarget[] = [
        {
          name: 'server from strangers',
          weight: 35,
          next: () => mutate([...corpusA, ...corpusB], random),
          send: (d) => sockets[Math.floor(random() * sockets.length)]!.send(d),
        },
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
        { name: 'server as B', weight: 17.5, next: () => mutate(corpusB, random, keepB), send: relayB.injectToServer },
        { name: 'client B', weight: 17.5, next: () => mutate(corpusB, random, keepB), send: relayB.injectToClient },
      ];
      let maxPeersSeen = 0;
      const violations: string[] = [];
      let sentA = 100;
      const checkBounds = () => {
        a.send(sentA, sentA + 5); // session A keeps talking, reliably, all through the fuzz
        sentA += 5;
        maxPeersSeen = Math.max(maxPeersSeen, server.getPeers().length);
        const connections = [...server.getPeers().map((p) => p.connection), clientConnection(clientB)];
        for (const c of connections) if (c) violations.push(...boundViolations(connectionSizes(c), MAX_QUEUED));
      };
      const received = () =>
        server.counters.datagramsReceived + clientA.counters.datagramsReceived + clientB.counters.datagramsReceived;
      const before = received();
      const started = performance.now();
      const cpu = process.cpuUsage();
      const report = await pumpFuzz(targets, COUNT, random, received, { check: checkBounds });
      const seconds = (performance.now() - started) / 1000;
      const cpuUsed = process.cpuUsage(cpu);
      const cpuSeconds = (cpuUsed.user + cpuUsed.system) / 1e6;
      checkBounds();
      const heapAfter = await settledHeapUsed();

      // Session A, which talked throughout, delivered everything in order and exactly once, and still does.
      a.send(sentA, sentA + 100);
      const total = sentA + 100;
      await waitFor(() => a.complete(total), 20_000, 'session A after the fuzz');
      const upTo = (n: number) => [...Array(n).keys()];
      expect(a.got.serverO).toEqual(upTo(total));
      expect(a.got.clientO).toEqual(upTo(total));
      expect([...a.got.serverU].sort((x, y) => Number(x) - Number(y))).toEqual(upTo(total));
      expect([...a.got.clientU].sort((x, y) => Number(x) - Number(y))).toEqual(upTo(total));
      expect(clientA.state).toBe('connected');
      expect(disconnectsA).toBe(0);

      const drops = server.counters.dropped;
      const serverB = server.getPeer(idB)?.connection.counters;
      const clientB2 = clientConnection(clientB)?.counters;
      console.log(
        `[lab fuzz] ${report.sent} datagrams in ${seconds.toFixed(1)} s, CPU ${cpuSeconds.toFixed(1)} s (seed ${SEED}), stalls ${report.stalls}, ` +
          `endpoints counted ${received() - before}, peers max ${maxPeersSeen}, ` +
          `heap ${heapBefore === undefined ? 'n/a' : ((heapAfter! - heapBefore) / 1e6).toFixed(1) + ' MB'}, ` +
          `B ${clientB.state}\n  kinds ${JSON.stringify(report.byKind)}\n  server drops ${JSON.stringify(drops)}\n` +
          `  client A drops ${JSON.stringify(clientA.counters.dropped)}\n` +
          `  session B (server side) delivered ${serverB?.messagesDelivered}, dup ${serverB?.duplicatesReceived}, ` +
          `drops ${JSON.stringify(serverB?.dropped)}\n  session B (client side) delivered ${clientB2?.messagesDelivered}, ` +
          `drops ${JSON.stringify(clientB2?.dropped)}`,
      );
      expect(guard.errors).toEqual([]);
      expect(callbackErrors).toEqual([]);
      expect(violations).toEqual([]);
      expect(maxPeersSeen).toBeLessThanOrEqual(MAX_PEERS);
      expect(report.sent).toBe(COUNT);
      // Most of the fuzz reached the endpoints' code (a few may be lost in socket buffers).
      expect(received() - before).toBeGreaterThan(COUNT * 0.9);
      for (const reason of [
        'too-short',
        'too-long',
        'unknown-channel',
        'bad-token',
        'unknown-source',
        'bad-body',
      ] as const)
        expect(drops[reason], reason).toBeGreaterThan(0);
      expect(clientA.counters.dropped['bad-token']).toBeGreaterThan(0);
      // Session B took valid-token garbage into its connection code on both sides, and nothing closed it.
      expect(clientB.state).toBe('connected');
      for (const counters of [serverB, clientB2]) {
        expect(counters?.dropped['out-of-window']).toBeGreaterThan(0);
        expect(counters?.duplicatesReceived).toBeGreaterThan(0);
        expect(counters?.messagesDelivered).toBeGreaterThan(300 + COUNT * 0.002);
      }
      if (heapBefore !== undefined) expect(heapAfter! - heapBefore).toBeLessThan(HEAP_BOUND);
    },
    40_000 + COUNT * 0.12,
  );
});
