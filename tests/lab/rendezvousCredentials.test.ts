import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDEZVOUS_VERSION as v } from '../../shared/rendezvous';
import { startLabRendezvous } from '../support/labRendezvous';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';

// The real rendezvous (the host CLI's --rendezvous, minting for the lab's coturn) on the lab's public side, and
// a stranger behind a home router speaking its WebSocket protocol: it gets no TURN credentials, whatever it
// asks (only a host's accept of a guest that proved the code earns one: tests/main/rendezvous). Every address is inside the lab's namespaces.
const skip = natLabUnavailableReason();
let lab: NatLab;
let url = '';

beforeAll(async () => {
  if (skip) return;
  lab = await createNatLab({
    routers: { home: 'endpoint-independent' },
    players: { service: 'public', stranger: { router: 'home' } },
  });
  url = (await startLabRendezvous(lab, 'service', 8787)).url;
}, 60_000);

afterAll(async () => {
  await lab?.destroy();
});

/** What the service says to `messages` sent from the stranger's namespace (one JSON line each, in order). */
async function talk(messages: readonly object[]): Promise<{ kind: string; [key: string]: unknown }[]> {
  const script = `
    const WebSocket = require('ws');
    const ws = new WebSocket(process.argv[1]);
    const got = [];
    ws.on('message', (data) => {
      got.push(JSON.parse(String(data)));
      if (got.length === 1) for (const m of JSON.parse(process.argv[2])) ws.send(JSON.stringify(m));
    });
    setTimeout(() => { console.log(JSON.stringify(got)); process.exit(0); }, 1500);
    ws.on('error', (e) => { console.error(String(e)); process.exit(1); });`;
  const child = lab.spawnIn('stranger', process.execPath, ['-e', script, url, JSON.stringify(messages)]);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (status !== 0) throw new Error(`stranger failed (${status}): ${err}`);
  return JSON.parse(out) as { kind: string }[];
}

describe.skipIf(skip)('the rendezvous hands TURN credentials to no stranger', () => {
  it('an anonymous connection, an unknown-room join and a ping get no credentials', async () => {
    const got = await talk([
      { v, kind: 'ping' },
      { v, kind: 'join', roomId: 'ZZZZZZ', pake: 'P'.repeat(94) },
    ]);
    console.log(`[stranger] ${JSON.stringify(got)}`);
    expect(got[0]).toMatchObject({ kind: 'welcome', relays: [expect.stringMatching(/^turn:203\.0\.113\./)] });
    expect(got.map((m) => m.kind)).toEqual(['welcome', 'pong', 'error']);
    expect(JSON.stringify(got)).not.toMatch(/username|password|credential/);
  }, 30_000);

  it('a connection that registers, unregisters and registers again gets no credentials either', async () => {
    const got = await talk([
      { v, kind: 'register' },
      { v, kind: 'unregister' },
      { v, kind: 'register' },
    ]);
    console.log(`[stranger host] ${JSON.stringify(got.map((m) => m.kind))}`);
    expect(got.filter((m) => m.kind === 'registered')).toHaveLength(2);
    expect(JSON.stringify(got)).not.toMatch(/username|password|credential/);
  }, 30_000);
});
