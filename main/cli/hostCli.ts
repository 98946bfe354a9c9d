// Headless dedicated host: `npx tsx main/cli/hostCli.ts --help` lists the flags.
// Exit codes: 0 closed normally (Ctrl-C / SIGTERM), 1 could not open the room, 2 bad command line.
import { closeOnSignal, runCli } from './closeOnSignal';
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

  return closeOnSignal(PROGRAM, async (signal) => {
    log(`${signal}: telling the players the room is closing`);
    await room.close();
    log('Room closed');
  });
}

runCli(PROGRAM, main);
