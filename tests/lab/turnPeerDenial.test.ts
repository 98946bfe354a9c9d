import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintTurnCredentials } from '../../main/net/ice';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';
import { scriptArgs } from '../support/scriptArgs';

// The relay (coturn started as the README says: tests/support/coturn.ts) refuses to relay to the relay host's
// own loopback and to private, CGNAT, link-local and multicast ranges, and still relays to public peers. A
// prober on the lab's public side asks coturn for permissions; every address lives inside the lab's namespaces.
const skip = natLabUnavailableReason();
let lab: NatLab;

beforeAll(async () => {
  if (skip) return;
  lab = await createNatLab({ routers: { home: 'endpoint-independent' }, players: { prober: 'public' } });
}, 60_000);

afterAll(async () => {
  await lab?.destroy();
});

/** CreatePermission outcomes for each peer, asked from the prober's namespace with fresh credentials. */
async function permissions(peers: readonly string[]): Promise<Record<string, string | number>> {
  const credentials = mintTurnCredentials(lab.turn.secret, 'prober', 600, Date.now() / 1000);
  const request = { host: lab.turn.host, port: lab.turn.port, ...credentials, peers };
  const child = lab.spawnIn('prober', process.execPath, [
    ...scriptArgs('tests/support/coturnPermissionProbe.ts'),
    JSON.stringify(request),
  ]);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (status !== 0) throw new Error(`probe failed (${status}): ${err}`);
  return JSON.parse(out) as Record<string, string | number>;
}

describe.skipIf(skip)('coturn relays to public peers only', () => {
  it('refuses 127.0.0.1, 172.16.0.1 and the other private ranges with 403; grants a public peer', async () => {
    const denied = ['127.0.0.1', '172.16.0.1', '10.0.0.1', '192.168.1.2', '100.64.0.1', '169.254.1.1', '224.0.0.1'];
    const publicPeer = lab.addresses.prober!;
    const got = await permissions([...denied, publicPeer]);
    console.log(`[turn peers] ${JSON.stringify(got)}`);
    for (const peer of denied) expect(got[peer], peer).toBe(403);
    expect(got[publicPeer]).toBe('granted');
    // coturn's own log names the refusal, so the 403 is its policy and not a transport error.
    expect(lab.turn.log()).toMatch(/forbidden|denied|403/i);
  }, 60_000);
});
