import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DhtPeerCommand, DhtPeerEvent } from '../support/labDhtPeer';
import { deleteNamespacesTagged } from '../support/netns';
import { createPrivateDhtLab, privateDhtLabUnavailableReason, type PrivateDhtLab } from '../support/privateDhtLab';

// Issue 40's meeting place on a private HyperDHT (tests/support/privateDhtLab.ts): five bootstrap nodes on the public
// side, home routers with `masquerade` and `masquerade random` that drop unsolicited WAN input, no rendezvous, no
// TURN, no miniupnpd. Bare HyperDHT peers (tests/support/labDhtPeer.ts) show what the lab lets through: plain ↔
// plain connects and echoes unordered messages; plain ↔ randomizing connects; randomizing ↔ randomizing is refused by
// the library itself (it relays nothing). Times are printed (nat-lab-notes.md saw 116 ms, 6.1 s and 230 ms); the
// bounds only catch a path that never settles, they hold on a busy machine.
const skip = privateDhtLabUnavailableReason();
const PEER_SCRIPT = fileURLToPath(new URL('../support/labDhtPeer.ts', import.meta.url));
// Every namespace of this file starts with this: the afterAll removes any a timed-out setup left.
const TAG = `lpdm${randomBytes(3).toString('hex')}`;
const MESSAGES = 5;

let lab: PrivateDhtLab;

beforeAll(async () => {
  if (skip) return;
  lab = await createPrivateDhtLab({
    routers: { home: 'endpoint-independent', away: 'endpoint-independent', rhome: 'symmetric', raway: 'symmetric' },
    players: {
      hostPlain: { router: 'home' },
      guestPlain: { router: 'away' },
      hostRandom: { router: 'rhome' },
      guestRandom: { router: 'raway' },
    },
    tag: TAG,
  });
  console.log(`[dht lab] five bootstrap nodes up in ${lab.bootstrapMs} ms`);
}, 120_000);

afterAll(async () => {
  await lab?.destroy();
  deleteNamespacesTagged(TAG);
});

/** A bare peer in `player`'s namespace, bootstrapped on the lab's DHT: send commands, await events. */
async function peerIn(player: string) {
  const child: ChildProcess = lab.spawnIn(player, process.execPath, ['--import', 'tsx', PEER_SCRIPT, ...lab.bootstrap]);
  const events: DhtPeerEvent[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-3000)));
  createInterface({ input: child.stdout! }).on('line', (line) => events.push(JSON.parse(line) as DhtPeerEvent));
  const next = async <E extends DhtPeerEvent['ev']>(
    ev: E,
    timeoutMs: number,
  ): Promise<Extract<DhtPeerEvent, { ev: E }>> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.find((event) => event.ev === ev || event.ev === 'error');
      if (found?.ev === 'error') throw new Error(`${player}: ${found.message}\n${stderr}`);
      if (found) return found as Extract<DhtPeerEvent, { ev: E }>;
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`${player}: no "${ev}" within ${timeoutMs} ms; saw ${JSON.stringify(events)}\n${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  // A tsx process in a namespace: ~2 s idle, far slower on a busy machine; bootstrapping then takes well under 1 s.
  const ready = await next('ready', 90_000);
  return {
    ready,
    next,
    send: (command: DhtPeerCommand) => void child.stdin!.write(`${JSON.stringify(command)}\n`),
    /** Whichever of the two comes first. */
    async settled(timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = events.find((event) => event.ev === 'open' || event.ev === 'failed');
        if (found) return found as Extract<DhtPeerEvent, { ev: 'open' | 'failed' }>;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(
        `${player}: neither open nor failed within ${timeoutMs} ms: ${JSON.stringify(events)}\n${stderr}`,
      );
    },
    stop: () => child.stdin!.end(),
  };
}

/** A server in `hostPlayer`'s namespace, a client in `guestPlayer`'s connecting to its key: the client's outcome. */
async function meet(hostPlayer: string, guestPlayer: string, timeoutMs: number) {
  const [host, guest] = await Promise.all([peerIn(hostPlayer), peerIn(guestPlayer)]);
  try {
    host.send({ cmd: 'listen' });
    const { publicKey } = await host.next('listening', 30_000);
    guest.send({ cmd: 'connect', publicKey, messages: MESSAGES });
    const outcome = await guest.settled(timeoutMs);
    const echoed = outcome.ev === 'open' ? await guest.next('echoed', 30_000) : undefined;
    return { outcome, echoed, hostReady: host.ready, guestReady: guest.ready };
  } finally {
    host.stop();
    guest.stop();
  }
}

describe.skipIf(skip)(
  `bare HyperDHT peers on a private DHT behind home routers${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    it.concurrent(
      'plain ↔ plain masquerade: connects and echoes every unordered message',
      async () => {
        const { outcome, echoed, hostReady, guestReady } = await meet('hostPlain', 'guestPlain', 30_000);
        console.log(
          `[dht lab bare] plain ↔ plain: ${outcome.ev} in ${outcome.ms} ms, ${echoed?.count}/${MESSAGES} echoed ` +
            `(bootstrapped in ${hostReady.ms} / ${guestReady.ms} ms)`,
        );
        expect(outcome).toMatchObject({ ev: 'open' });
        expect(echoed?.count).toBe(MESSAGES);
        // The DHT saw each peer at its router's public address, not its own.
        expect(hostReady.host).toBe(lab.wan.home);
        expect(guestReady.host).toBe(lab.wan.away);
      },
      150_000,
    );

    it.concurrent(
      'plain ↔ randomizing: connects',
      async () => {
        const { outcome, echoed } = await meet('hostPlain', 'guestRandom', 60_000);
        console.log(
          `[dht lab bare] plain ↔ randomizing: ${outcome.ev} in ${outcome.ms} ms, ${echoed?.count}/${MESSAGES} echoed`,
        );
        expect(outcome).toMatchObject({ ev: 'open' });
        expect(echoed?.count).toBe(MESSAGES);
      },
      150_000,
    );

    it.concurrent(
      'randomizing ↔ randomizing: the library gives up (no relay), it never connects',
      async () => {
        const { outcome } = await meet('hostRandom', 'guestRandom', 60_000);
        console.log(
          `[dht lab bare] randomizing ↔ randomizing: ${outcome.ev} in ${outcome.ms} ms (${JSON.stringify(outcome)})`,
        );
        expect(outcome.ev).toBe('failed');
        if (outcome.ev !== 'failed') return;
        expect(['HOLEPUNCH_DOUBLE_RANDOMIZED_NATS', 'HOLEPUNCH_ABORTED']).toContain(outcome.code);
      },
      150_000,
    );
  },
);
