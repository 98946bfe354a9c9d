// Headless dedicated host: `npx tsx main/cli/hostCli.ts --help` lists the flags.
// Exit codes: 0 closed normally (Ctrl-C / SIGTERM), 1 could not open the room, 2 bad command line.
import { hostname } from 'node:os';
import { BindError } from '../net/errors';
import { startDedicatedHost, type DedicatedHost } from './dedicatedHost';
import { HostCliUsageError, hostCliHelp, parseHostCliArgs } from './hostCliArgs';

const PROGRAM = 'lan-party-host';

function timestamp(date: Date): string {
  return date.toTimeString().slice(0, 8);
}

const log = (line: string): void => void process.stdout.write(`[${timestamp(new Date())}] ${line}\n`);

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

  let room: DedicatedHost;
  try {
    room = await startDedicatedHost(command.options, { log });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `${PROGRAM}: could not open the room: ${message.replace(/\.$/, '')}.${startFailureHint(error)}\n`,
    );
    return 1;
  }
  process.stdout.write(`${room.banner.join('\n')}\n`);

  return new Promise((resolve) => {
    let closing = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (closing) {
        // A second Ctrl-C: the player asked twice, stop waiting for goodbyes.
        process.stderr.write(`${PROGRAM}: ${signal} again, exiting without waiting\n`);
        process.exit(1);
      }
      closing = true;
      log(`${signal}: telling the players the room is closing`);
      room.close().then(
        () => {
          log('Room closed');
          resolve(0);
        },
        (error: unknown) => {
          process.stderr.write(`${PROGRAM}: error while closing: ${(error as Error).message}\n`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Everything is closed by now; should a stray handle linger, do not hang the terminal over it.
    setTimeout(() => process.exit(code), 2000).unref();
  },
  (error: unknown) => {
    process.stderr.write(`${PROGRAM}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
