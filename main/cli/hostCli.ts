// Headless dedicated host: `npm run host -- --help` lists the flags.
// Exit codes: 0 closed normally (Ctrl-C / SIGTERM), 1 could not open the room (or a bug ended it), 2 bad command line.
import { closeOnSignal, runCli } from './closeOnSignal';
import { installCliFailureGuard } from './cliFailureGuard';
import { hostname } from 'node:os';
import { BindError } from '../net/index';
import { startDedicatedHost, type DedicatedHost } from './dedicatedHost';
import { HostCliUsageError, hostCliHelp, parseHostCliArgs } from './hostCliArgs';
import { openHostLog } from './hostLog';
import { startRendezvousMode } from './rendezvousMode';

const PROGRAM = 'lan-party-host';

function startFailureHint(error: unknown): string {
  if (error instanceof BindError && error.code === 'EADDRINUSE') return ' Choose another port with --port.';
  if (/LAN discovery/.test(String(error))) return ' Choose another with --discovery-port, or use --no-discovery.';
  return '';
}

async function main(argv: string[]): Promise<number> {
  let command;
  try {
    command = parseHostCliArgs(argv, process.env, hostname());
  } catch (error) {
    if (!(error instanceof HostCliUsageError)) throw error;
    process.stderr.write(`${PROGRAM}: ${error.message}\nRun with --help for usage.\n`);
    return 2;
  }
  if (command.kind === 'help') {
    process.stdout.write(`${hostCliHelp()}\n`);
    return 0;
  }

  let log;
  try {
    log = openHostLog(
      command.options.logFile,
      (text) => process.stdout.write(text),
      () => new Date(),
    );
  } catch (error) {
    process.stderr.write(`${PROGRAM}: ${(error as Error).message}\n`);
    return 2;
  }
  // One guest's failed path or a rendezvous away must not end the room for everyone: logged, and it carries on.
  installCliFailureGuard({
    program: PROGRAM,
    process,
    log: log.line,
    stderr: (text) => process.stderr.write(text),
    exit: (code) => process.exit(code),
  });

  const expectRelayedSignal = process.env.npm_lifecycle_event !== undefined;
  if (command.kind === 'rendezvous') {
    let rendezvous;
    try {
      rendezvous = await startRendezvousMode(command.options, log.line);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const hint = code === 'EADDRINUSE' ? ' Choose another port in --rendezvous.' : '';
      const text = `could not start the rendezvous: ${(error as Error).message}.${hint}`;
      log.failure(text);
      process.stderr.write(`${PROGRAM}: ${text}\n`);
      return 1;
    }
    log.banner(rendezvous.banner);
    return closeOnSignal(
      PROGRAM,
      async (signal) => {
        log.line(`${signal}: closing the rendezvous`);
        await rendezvous.close();
        log.line('Rendezvous closed');
      },
      { expectRelayedSignal },
    );
  }

  let room: DedicatedHost;
  try {
    room = await startDedicatedHost(command.options, { log: log.line });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const text = `could not open the room: ${message.replace(/\.$/, '')}.${startFailureHint(error)}`;
    log.failure(text);
    process.stderr.write(`${PROGRAM}: ${text}\n`);
    return 1;
  }
  log.banner(room.banner);

  return closeOnSignal(
    PROGRAM,
    async (signal) => {
      log.line(`${signal}: telling the players the room is closing`);
      await room.close();
      log.line('Room closed');
    },
    // Under `npm run host`, npm forwards the terminal's Ctrl-C to us a second time.
    { expectRelayedSignal },
  );
}

runCli(PROGRAM, main);
