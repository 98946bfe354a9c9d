import { runCli, type RunningCli } from '../../support/runCli';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LobbyGuest, type LobbyEnd } from '../../../main/lobby/lobbyGuest';
import { discoverLanServers } from '../../../main/net/discovery';
import { decode } from '../../../shared/roomCode';
import { sigintListenersAt, sigintProbeEnv } from '../../support/sigintProbe';
import { waitFor } from '../../support/waitFor';

// Starting a Node process takes a while on a busy machine.
const CLI_TIMEOUT = 30_000;
// Loopback only: bound to 127.0.0.1, discovery on a free port without announcements.
const LOOPBACK = [
  '--bind',
  '127.0.0.1',
  '--advertise',
  '127.0.0.1',
  '--port',
  '0',
  '--discovery-port',
  '0',
  '--no-announce',
];

type Running = RunningCli;

const cli = (args: string[]): Running => runCli('main/cli/hostCli.ts', args, { LAN_PARTY_PASSWORD: '' });

const match = (text: string, pattern: RegExp): string => {
  const found = pattern.exec(text);
  if (!found?.[1]) throw new Error(`no ${pattern} in:\n${text}`);
  return found[1];
};

const guests: LobbyGuest[] = [];
afterEach(async () => {
  for (const guest of guests.splice(0)) await guest.leave();
});

describe('main/cli/hostCli.ts', () => {
  let help: Running;
  let badFlag: Running;
  let busy: Running;
  let badLogFile: Running;
  let holder: Socket;
  let heldPort: number;
  let dir: string;

  beforeAll(async () => {
    // A port held by "another program" (no address reuse) for the busy-port run.
    holder = createSocket('udp4');
    await new Promise<void>((resolve) => holder.bind(0, '127.0.0.1', resolve));
    heldPort = holder.address().port;
    dir = await mkdtemp(joinPath(tmpdir(), 'lan-party-host-cli-'));
    await writeFile(joinPath(dir, 'a-file'), '');
    help = cli(['--help']);
    badFlag = cli(['--max-players', 'lots']);
    busy = cli(['--bind', '127.0.0.1', '--port', String(heldPort), '--no-discovery']);
    badLogFile = cli([...LOOPBACK, '--log-file', joinPath(dir, 'a-file', 'host.log')]);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  it('--help explains every flag and exits 0', { timeout: CLI_TIMEOUT }, async () => {
    expect(await help.exited).toBe(0);
    for (const flag of [
      '--name',
      '--port',
      '--max-players',
      '--password',
      '--discovery-port',
      '--no-discovery',
      '--bind',
      '--advertise',
    ]) {
      expect(help.stdout()).toContain(flag);
    }
    expect(help.stderr()).toBe('');
  });

  it('a bad flag gets a clear message on stderr and exit code 2', { timeout: CLI_TIMEOUT }, async () => {
    expect(await badFlag.exited).toBe(2);
    expect(badFlag.stderr()).toBe(
      'lan-party-host: --max-players: expected a whole number from 1 to 15, got "lots"\nRun with --help for usage.\n',
    );
    expect(badFlag.stdout()).toBe('');
  });

  it('a busy port gets a clear message and exit code 1', { timeout: CLI_TIMEOUT }, async () => {
    expect(await busy.exited).toBe(1);
    expect(busy.stderr()).toBe(
      `lan-party-host: could not open the room: UDP port ${heldPort} on 127.0.0.1 is already in use by another ` +
        'program (or another LAN Party host). Choose another port with --port.\n',
    );
  });

  it('a log file it cannot write is refused before the room opens, exit code 2', { timeout: CLI_TIMEOUT }, async () => {
    expect(await badLogFile.exited).toBe(2);
    expect(badLogFile.stderr()).toBe(
      `lan-party-host: --log-file: cannot write to ${joinPath(dir, 'a-file', 'host.log')}: a file is in the way of its ` +
        'folder\n',
    );
    expect(badLogFile.stdout()).toBe('');
  });

  it('listens for Ctrl-C before its banner says to press it', { timeout: CLI_TIMEOUT }, async () => {
    const run = runCli('main/cli/hostCli.ts', ['--name', 'Probe', ...LOOPBACK], {
      LAN_PARTY_PASSWORD: '',
      ...sigintProbeEnv(),
    });
    await waitFor(() => run.stdout().includes('Press Ctrl-C'), 20_000, 'the room to open');
    expect(sigintListenersAt(run.stderr(), 'LAN Party dedicated host: "Probe"'), run.stderr()).toBe(1);
    run.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });

  it(
    'hosts: code, discovery, join/chat/leave logs (also in --log-file), and SIGINT closes the room for guests, exit 0',
    { timeout: CLI_TIMEOUT },
    async () => {
      const logFile = joinPath(dir, 'logs', 'host.log');
      const run = cli(['--name', 'Friday LAN', '--max-players', '4', ...LOOPBACK, '--log-file', logFile]);
      await waitFor(() => run.stdout().includes('Press Ctrl-C'), 20_000, 'the room to open');
      const out = run.stdout();
      expect(out).toContain('LAN Party dedicated host: "Friday LAN"');
      const code = match(out, /^Room code: (\S+)$/m);
      const port = Number(match(out, /^Addresses: 127\.0\.0\.1:(\d+) \(bound\)$/m));
      expect(decode(code)).toEqual({ host: '127.0.0.1', port });
      expect(out).toMatch(/^Players: {3}up to 4$/m);

      const discoveryPort = Number(match(out, /answering LAN searches on UDP (\d+)$/m));
      const found = await discoverLanServers({ port: discoveryPort, targets: ['127.255.255.255'], timeoutMs: 300 });
      expect(found.map((server) => [server.name, server.address])).toEqual([
        ['Friday LAN', { host: '127.0.0.1', port }],
      ]);
      // The advert counts what the banner does: four seats, none taken by the host itself.
      expect(found[0]).toMatchObject({ playerCount: 0, capacity: 4 });

      const join = async (name: string) => {
        const guest = await LobbyGuest.join({
          host: '127.0.0.1',
          port,
          playerName: name,
          colour: '#22cc88',
          timeout: 3,
        });
        guests.push(guest);
        return guest;
      };
      const gus = await join('Gus');
      const ida = await join('Ida');
      gus.chat('hi from gus');
      await waitFor(() => run.stdout().includes('[chat] Gus: hi from gus'), 3000, 'the chat log');
      await ida.leave();
      await waitFor(() => run.stdout().includes('Ida left (1/4 players)'), 3000, 'the leave log');
      const log = run.stdout();
      expect(log).toMatch(/^\[\d\d:\d\d:\d\d\] Gus joined as player 1 \(1\/4 players\)$/m);
      expect(log).toMatch(/^\[\d\d:\d\d:\d\d\] Ida joined as player 2 \(2\/4 players\)$/m);

      const ended = new Promise<LobbyEnd>((resolve) => gus.onEnd(resolve));
      run.kill('SIGINT');
      expect(await ended).toMatchObject({ code: 'host-closed' });
      expect(await run.exited).toBe(0);
      expect(run.stdout()).toMatch(/SIGINT: telling the players the room is closing\n.*Room closed\n$/);
      expect(run.stderr()).toBe('');
      const written = await readFile(logFile, 'utf8');
      for (const text of [`Room code: ${code}`, 'Gus joined as player 1 (1/4 players)', '[chat] Gus: hi from gus']) {
        expect(written).toContain(`(host) ${text}\n`);
      }
      expect(written).toMatch(/\(host\) SIGINT: telling the players the room is closing\n.*\(host\) Room closed\n$/);
    },
  );
});
