import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { natLabUnavailableReason } from '../support/natLab';
import { startIcePathsLab, type IcePathsLab, type Pair } from '../support/labIcePaths';

// Internet paths in a small internet of namespaces (tests/support/labIcePaths.ts, natLab.ts): ICE (werift-ice) with
// coturn's STUN and TURN, the secure socket, and a real Server and Client (native) of ours over each path. The
// figures over these paths (setup time, the relay's added RTT and throughput loss, stack vs raw) are a benchmark:
// `npm run bench -- --only internetPaths` (bench/internetPaths.ts).
const skip = natLabUnavailableReason();
const MESSAGES = 500;

let paths: IcePathsLab;
const connectPair: IcePathsLab['connectPair'] = (...args) => paths.connectPair(...args);

beforeAll(async () => {
  if (skip) return;
  paths = await startIcePathsLab();
}, 30_000);

afterAll(async () => {
  await paths?.destroy();
});

/** Moves MESSAGES reliable messages guest → host, each echoed, and checks none was lost or duplicated. */
async function exchange(pair: Pair) {
  await Promise.all([pair.host.next('connected'), pair.guest.next('connected')]);
  pair.guest.send({ cmd: 'traffic', messages: MESSAGES });
  const [atHost, atGuest] = await Promise.all([pair.host.next('traffic'), pair.guest.next('traffic')]);
  for (const report of [atHost, atGuest]) {
    expect(report).toMatchObject({ ev: 'traffic', received: MESSAGES, duplicates: 0, outOfOrder: 0 });
  }
}

function expectPath(pair: Pair, kind: 'direct' | 'relayed') {
  for (const side of [pair.hostPath, pair.guestPath]) {
    if (side.ev === 'failed') throw new Error(`no path: ${side.message}`);
    expect(side.path.kind).toBe(kind);
  }
}

describe.skipIf(skip)(`internet paths in a NAT lab${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('both behind endpoint-independent NATs: direct, 500 reliable messages each way intact', async () => {
    const pair = await connectPair('e1', 'e2');
    expectPath(pair, 'direct');
    await exchange(pair);
  }, 60_000);

  it('both behind symmetric NATs: relayed, 500 reliable messages each way intact', async () => {
    const pair = await connectPair('s1', 's2');
    expectPath(pair, 'relayed');
    await exchange(pair);
  }, 60_000);

  it('UDP blocked except to the TURN port: relayed', async () => {
    const pair = await connectPair('b1', 'e2');
    expectPath(pair, 'relayed');
    await exchange(pair);
  }, 60_000);

  it('host on the public side: direct', async () => {
    const pair = await connectPair('pub', 's1');
    expectPath(pair, 'direct');
    await exchange(pair);
  }, 60_000);

  // The failure cases wait out their connect timeouts side by side.
  it.concurrent(
    'symmetric NATs and no TURN: the clear "no relay" error on both sides',
    async () => {
      const pair = await connectPair('s1', 's2', { turn: 'none', connectTimeoutSeconds: 3 });
      for (const side of [pair.hostPath, pair.guestPath]) {
        expect(side).toMatchObject({ ev: 'failed', failure: 'no-relay' });
        if (side.ev === 'failed')
          expect(side.message).toMatch(/^host behind a network that blocks UDP and no relay configured/);
      }
    },
    60_000,
  );

  it.concurrent(
    'expired TURN credentials: the clear "credentials refused (expired)" error',
    async () => {
      const pair = await connectPair('s1', 's2', { turn: 'expired', connectTimeoutSeconds: 3 });
      for (const side of [pair.hostPath, pair.guestPath]) {
        expect(side).toMatchObject({ ev: 'failed', failure: 'relay-failed' });
        if (side.ev === 'failed') expect(side.message).toMatch(/refused the credentials \(they expired\)/);
      }
    },
    60_000,
  );
  it.concurrent(
    'TURN credentials from another secret: "refused the credentials (wrong or expired)"',
    async () => {
      const pair = await connectPair('s2', 's1', { turn: 'wrong', connectTimeoutSeconds: 3 });
      for (const side of [pair.hostPath, pair.guestPath]) {
        expect(side).toMatchObject({ ev: 'failed', failure: 'relay-failed' });
        if (side.ev === 'failed') expect(side.message).toMatch(/refused the credentials \(wrong or expired\)/);
      }
    },
    60_000,
  );
});
