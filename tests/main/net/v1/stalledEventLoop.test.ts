import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Server, type Peer } from '../../../../main/net/index';
import { waitFor } from '../../../support/waitFor';
import { scriptArgs } from '../../../support/scriptArgs';

// A real socket, a real stall: the test's own event loop is blocked for 6 s (Atomics.wait, which spins no core) past
// the server's 5 s silence timeout while a peer in another process keeps sending, as on a busy machine, in a long
// GC pause or when a laptop resumes. The datagrams wait in the socket's buffer; the peer must survive. A peer that
// really went silent must still be dropped at its timeout.

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const TIMEOUT_S = 5;
const STALL_MS = 6_000;

/** Blocks this thread's event loop for `ms`: nothing is read from any socket meanwhile. */
const blockEventLoop = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const children: ChildProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server with the default 5 s timeout on loopback, and a chatty peer connected to it from its own process. */
async function serverWithChattyPeer(protocol: 'v1' | 'native') {
  const server = await Server.listen({
    port: 0,
    host: '127.0.0.1',
    timeout: TIMEOUT_S,
    ...(protocol === 'v1' ? { native: false as const } : {}),
  });
  servers.push(server);
  const drops: Array<{ reason: string; at: number }> = [];
  server.onDisconnect((_peer: Peer, reason: string) => drops.push({ reason, at: performance.now() }));
  let ticks = 0;
  let lastTickAt = 0;
  server.onMessage('tick', () => {
    ticks++;
    lastTickAt = performance.now();
  });
  const child = spawn(
    process.execPath,
    [...scriptArgs('tests/support/chattyPeerAgent.ts'), String(server.port), protocol],
    {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  // A process starts in under a second idle, far slower on a busy machine.
  await waitFor(() => server.getPeers().length === 1 && ticks > 0, 60_000, 'the chatty peer connected and talking');
  return { server, drops, child, ticks: () => ticks, lastTickAt: () => lastTickAt };
}

describe.each(['v1', 'native'] as const)('a blocked event loop (%s)', (protocol) => {
  it('keeps a peer that kept sending while the loop was blocked past the timeout', async () => {
    const { server, drops, ticks } = await serverWithChattyPeer(protocol);
    const before = ticks();
    const blocked = performance.now();
    blockEventLoop(STALL_MS);
    expect(performance.now() - blocked).toBeGreaterThanOrEqual(STALL_MS - 50);
    // What waited is read, and the peer keeps talking for a while after: it was never dropped.
    await waitFor(() => ticks() > before + 40 || drops.length > 0, 20_000, 'ticks after the stall, or a drop');
    expect(drops).toEqual([]);
    await waitFor(() => ticks() > before + 80, 20_000, 'more ticks');
    expect(drops).toEqual([]);
    expect(server.getPeers()).toHaveLength(1);
  }, 120_000);

  it('still drops a peer that really went silent, at its timeout, and at once after a stall', async () => {
    const { drops, child, lastTickAt } = await serverWithChattyPeer(protocol);
    child.kill('SIGKILL'); // silent at once: no disconnect sent
    const silentFrom = performance.now();
    await waitFor(() => drops.length === 1, 20_000, 'the silent peer dropped');
    const after = (drops[0]!.at - silentFrom) / 1000;
    // Heard last no earlier than its last tick: never dropped before `timeout` of silence.
    const silentFor = (drops[0]!.at - lastTickAt()) / 1000;
    expect(drops[0]!.reason).toBe(`timed out: nothing heard for ${TIMEOUT_S} s`);
    // Never before its timeout (a lower bound, which a busy machine cannot break); how late it came is printed,
    // not judged: that moves with the machine's load.
    expect(silentFor).toBeGreaterThan(TIMEOUT_S);
    console.log(`[stalled loop] a silent peer dropped ${after.toFixed(2)} s after it went silent`);

    const second = await serverWithChattyPeer(protocol);
    second.child.kill('SIGKILL');
    await waitFor(() => second.child.exitCode !== null || second.child.signalCode !== null, 10_000, 'peer killed');
    blockEventLoop(STALL_MS);
    const unblocked = performance.now();
    await waitFor(() => second.drops.length === 1, 20_000, 'the silent peer dropped after the stall');
    expect(second.drops[0]!.reason).toBe(`timed out: nothing heard for ${TIMEOUT_S} s`);
    const late = (second.drops[0]!.at - unblocked) / 1000;
    console.log(`[stalled loop] a peer silent through the stall dropped ${late.toFixed(2)} s after it ended`);
  }, 180_000);
});
