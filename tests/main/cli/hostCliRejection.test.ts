import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LobbyGuest, type LobbyEnd } from '../../../main/lobby/lobbyGuest';
import { runCli, type RunningCli } from '../../support/runCli';
import { waitFor } from '../../support/waitFor';

// Starting a Node process takes a while on a busy machine.
const CLI_TIMEOUT = 60_000;
const OPEN_MS = 40_000;
const FIXTURE = fileURLToPath(new URL('../../fixtures/cli/rejectOnSignal.mjs', import.meta.url));
const LOOPBACK = ['--bind', '127.0.0.1', '--advertise', '127.0.0.1', '--port', '0', '--no-discovery'];

function host(rejection: 'network' | 'bug'): RunningCli {
  return runCli(
    'main/cli/hostCli.ts',
    LOOPBACK,
    {
      LAN_PARTY_PASSWORD: '',
      LAN_PARTY_TEST_REJECTION: rejection,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${FIXTURE}`.trim(),
    },
    CLI_TIMEOUT - 5000,
  );
}

async function opened(run: RunningCli): Promise<number> {
  await waitFor(() => run.stdout().includes('Press Ctrl-C'), OPEN_MS, 'the room to open');
  expect(run.stdout()).toContain('rejection fixture ready');
  const port = /^Addresses: 127\.0\.0\.1:(\d+) \(bound\)$/m.exec(run.stdout())?.[1];
  if (!port) throw new Error(`no address in:\n${run.stdout()}`);
  return Number(port);
}

const guests: LobbyGuest[] = [];
afterEach(async () => {
  for (const guest of guests.splice(0)) await guest.leave();
});

describe('the headless host and a rejection nothing handled', () => {
  it(
    'logs a failed network path and stays up and joinable; Ctrl-C still closes it cleanly',
    { timeout: CLI_TIMEOUT },
    async () => {
      const run = host('network');
      const port = await opened(run);
      run.kill('SIGUSR2');
      await waitFor(
        () => run.stdout().includes('a network task failed, the room carries on: connect ECONNREFUSED 127.0.0.1:1'),
        5000,
        'the failure logged',
      );
      const guest = await LobbyGuest.join({
        host: '127.0.0.1',
        port,
        playerName: 'Gus',
        colour: '#22cc88',
        timeout: 3,
      });
      guests.push(guest);
      await waitFor(() => run.stdout().includes('Gus joined as player 1'), 3000, 'the join log');
      const ended = new Promise<LobbyEnd>((resolve) => guest.onEnd(resolve));
      run.kill('SIGINT');
      expect(await ended).toMatchObject({ code: 'host-closed' });
      expect(await run.exited).toBe(0);
      expect(run.stderr()).toBe('');
    },
  );

  it('ends on a rejection that is a bug, with exit code 1 and a clear message', { timeout: CLI_TIMEOUT }, async () => {
    const run = host('bug');
    await opened(run);
    run.kill('SIGUSR2');
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toMatch(
      /^lan-party-host: unexpected error \(a bug\), closing: TypeError: the test fixture threw/,
    );
  });
});
