import { runCli, type RunningCli } from '../support/runCli';
import { sigintListenersAt, sigintProbeEnv } from '../support/sigintProbe';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IMPAIRMENT_FLAGS } from '../../scripts/conditionerArgs';
import { echoServer, endpoint, waitFor, type Endpoint } from '../main/conditioner/udpHelpers';

type Running = RunningCli;

const cli = (args: string[]): Running => runCli('scripts/conditioner.ts', args);

const open: Endpoint[] = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

// Starting a Node process takes a while on a busy machine, so the short-lived runs start together up front.
const CLI_TIMEOUT = 30_000;

describe('scripts/conditioner.ts', () => {
  let help: Running;
  let unknownFlag: Running;
  let remote: Running;
  beforeAll(() => {
    help = cli(['--help']);
    unknownFlag = cli(['--target', '127.0.0.1:9000', '--los', '0.1']);
    remote = cli(['--target', '192.0.2.7:9000']);
  });

  it('--help explains every flag and exits 0', { timeout: CLI_TIMEOUT }, async () => {
    expect(await help.exited).toBe(0);
    for (const [flag] of IMPAIRMENT_FLAGS) expect(help.stdout()).toContain(`--${flag}`);
    expect(help.stdout()).toContain('--target <host:port>');
    expect(help.stderr()).toBe('');
  });

  it('rejects an unknown flag with a clear message and exit code 2', { timeout: CLI_TIMEOUT }, async () => {
    expect(await unknownFlag.exited).toBe(2);
    expect(unknownFlag.stderr()).toMatch(/^conditioner: Unknown option '--los'/);
    expect(unknownFlag.stderr()).toContain('Run with --help for usage.');
  });

  it('rejects a non-loopback target with exit code 2', { timeout: CLI_TIMEOUT }, async () => {
    expect(await remote.exited).toBe(2);
    expect(remote.stderr()).toMatch(/--target: 192\.0\.2\.7 is not a loopback address; add --allow-non-loopback/);
  });

  it(
    'relays datagrams and shuts down cleanly on SIGINT, listening for it before it says where',
    { timeout: CLI_TIMEOUT },
    async () => {
      const server = await echoServer();
      const client = await endpoint();
      open.push(server, client);
      const args = ['--target', `127.0.0.1:${server.port}`, '--latency', '5', '--seed', '7'];
      const run = runCli('scripts/conditioner.ts', args, sigintProbeEnv());
      await waitFor(() => /listening on 127\.0\.0\.1:\d+/.test(run.stdout()), 'the CLI to start', 20_000);
      const port = Number(/listening on 127\.0\.0\.1:(\d+)/.exec(run.stdout())![1]);
      const first = run.stdout().split('\n')[0]!;
      expect(sigintListenersAt(run.stderr(), first), run.stderr()).toBe(1);
      expect(run.stdout()).toContain('(seed 7)');
      client.send('through the cli', port);
      await waitFor(() => client.received.length === 1, 'the echo through the CLI relay');
      expect(client.received[0]!.data.toString()).toBe('through the cli');
      run.kill('SIGINT');
      expect(await run.exited).toBe(0);
      expect(run.stdout()).toMatch(/stopped \(SIGINT\)/);
      expect(run.stdout()).toMatch(/upstream {2}: received 1 \(15 B\), forwarded 1/);
    },
  );
});
