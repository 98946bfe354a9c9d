import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLabRendezvous } from '../support/labRendezvous';
import { RoomPeer } from '../support/labRoomDriver';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';
import { watchOutput } from '../support/cliOutput';
import { scriptArgs } from '../support/scriptArgs';

// The dedicated host's internet room in the namespace lab (tests/support/natLab.ts): the host CLI as a real process
// (its own process, so signals reach it) behind one home router, the self-hosted rendezvous on the public side
// (with a service key file, so a room's owner can register its id again after a restart), guests as whole backends
// behind another router. The CLI prints its NET- code; a guest joins by it and chats; the rendezvous restarts;
// the room registers again by itself under the same code and a new guest joins by it.
const skip = natLabUnavailableReason();
const RDV_PORT = 8788;
const HOST_CLI = fileURLToPath(new URL('../../main/cli/hostCli.ts', import.meta.url));

let lab: NatLab;
let keyDir = '';
let rendezvous: { child: ChildProcess; url: string };

beforeAll(async () => {
  if (skip) return;
  lab = await createNatLab({
    routers: { home: 'endpoint-independent', away: 'endpoint-independent' },
    players: { cli: { router: 'home' }, g1: { router: 'away' }, g2: { router: 'away' }, rdv: 'public' },
  });
  keyDir = mkdtempSync(join(tmpdir(), 'lan-party-rdv-key-'));
  rendezvous = await startLabRendezvous(lab, 'rdv', RDV_PORT, { serviceKeyFile: join(keyDir, 'service.key') });
}, 60_000);

afterAll(async () => {
  await lab?.destroy();
  if (keyDir) rmSync(keyDir, { recursive: true, force: true });
});

describe.skipIf(skip)('the host CLI opens an internet room behind a NAT', () => {
  it('prints its NET- code, lets a guest in by it, and registers it again after the rendezvous restarts', async () => {
    const at = lab.addresses.cli!;
    // The CLI's network options named in full (any free port, bound to and advertising the namespace's address, no
    // discovery socket, no announcements), and the lab's rendezvous (STUN and TURN from it).
    const networkOptions = ['--port', '0', '--bind', at, '--advertise', at, '--no-discovery', '--no-announce'];
    const cli = lab.spawnIn('cli', process.execPath, [
      ...scriptArgs(HOST_CLI),
      '--name',
      'Lab CLI room',
      ...networkOptions,
      '--reach',
      'internet',
      '--rendezvous',
      rendezvous.url,
      // The rendezvous is what this test is about: the router is not asked for a port.
      '--no-port-mapping',
    ]);
    const log = watchOutput(cli);
    const [, code] = await log.line(/Internet code: (NET-[0-9A-Z-]+) \(registered with the rendezvous\)/, 0, 60_000);
    console.log(`[cli internet] the CLI room registered as ${code}`);

    const first = await RoomPeer.start(lab, 'g1', rendezvous.url);
    const joined = await first.command('lobby.joinByCode', { code: code!.toLowerCase() });
    expect(joined.status).toBe('in-room');
    expect(joined.state?.roomName).toBe('Lab CLI room');
    // Both routers map endpoint-independently: the guest's path to the CLI room is direct.
    expect(joined.state?.players.find((p) => p.id === joined.you)?.path).toBe('direct');
    await log.line(/joined as player \d+ \(1\/8 players\)/, 0, 15_000);
    await first.call('lobby.chat', { text: 'hello, headless host' });
    await log.line(/\[chat\] .*: hello, headless host/, 0, 15_000);

    // The rendezvous restarts (same port, same service key): the room notices and registers the same code again.
    const before = log.text().length;
    rendezvous.child.kill('SIGKILL');
    await log.line(/registering again by itself/, before, 30_000);
    const restartedAt = Date.now();
    rendezvous = await startLabRendezvous(lab, 'rdv', RDV_PORT, { serviceKeyFile: join(keyDir, 'service.key') });
    const [, again] = await log.line(/Internet code: (NET-[0-9A-Z-]+) \(registered/, before, 60_000);
    console.log(`[cli internet] registered again ${Date.now() - restartedAt} ms after the rendezvous restarted`);
    expect(again).toBe(code);

    // A new guest joins by the same code; the first one never left.
    const second = await RoomPeer.start(lab, 'g2', rendezvous.url);
    const rejoined = await second.command('lobby.joinByCode', { code: code! });
    expect(rejoined.status).toBe('in-room');
    await log.line(/joined as player \d+ \(2\/8 players\)/, before, 15_000);
    await second.call('lobby.chat', { text: 'in after the restart' });
    await first.until((v) => v.state?.chat.some((l) => l.text === 'in after the restart') === true, 'the line at g1');
    expect(first.views.at(-1)?.status).toBe('in-room');

    // Ctrl-C: the CLI tells the players and exits cleanly.
    first.stop();
    second.stop();
    const exited = new Promise<number | null>((resolve) => cli.once('exit', resolve));
    cli.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(log.text()).toMatch(/Room closed/);
  }, 240_000);
});
