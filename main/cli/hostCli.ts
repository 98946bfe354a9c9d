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
import { lineLogger } from '../base/logger';
import type { MapPort } from '../reach/portmap/portMapping';
import { mappingRecordPath } from '../reach/portmap/mappingRecord';
import { startPortMapping } from '../reach/portmap/startPortMapping';
import { defaultRendezvousDataDir } from '../rendezvous/serviceKey';
import { startDhtNode } from '../reach/internet/dht/dhtNode';

const PROGRAM = 'lan-party-host';

function startFailureHint(error: unknown): string {
  if (error instanceof BindError && error.code === 'EADDRINUSE') return ' Choose another port with --port.';
  if (/LAN discovery/.test(String(error))) return ' Choose another with --discovery-port, or use --no-discovery.';
  return '';
}

/**
 * The router port mapping of an internet room (undefined when --no-port-mapping turned it off): its record in the
 * data folder, so a start after a crash removes the mapping the crash left; each try logged with how long it took.
 */
function cliPortMapping(gateways: readonly string[] | undefined, line: (text: string) => void): MapPort | undefined {
  const mapPort = startPortMapping({
    gateways,
    recordFile: mappingRecordPath(defaultRendezvousDataDir()),
    logger: lineLogger(line),
  });
  if (!mapPort) return undefined;
  return async (request) => {
    line(`Asking ${gateways?.[0] ?? 'the default gateway'} to open a port (UPnP, NAT-PMP, PCP)`);
    const started = performance.now();
    const result = await mapPort(request);
    const outcome = result.ok ? `mapped (${result.mapping.protocol})` : result.failure.kind;
    line(`Router port mapping: ${outcome} after ${Math.round(performance.now() - started)} ms`);
    return result;
  };
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
    const stopped = closeOnSignal(
      PROGRAM,
      async (signal) => {
        log.line(`${signal}: closing the rendezvous`);
        await rendezvous.close();
        log.line('Rendezvous closed');
      },
      { expectRelayedSignal },
    );
    // After the handlers, as for a room below: a Ctrl-C as soon as the banner shows must close it cleanly.
    log.banner(rendezvous.banner);
    return stopped;
  }

  const mapPort = command.options.internet
    ? cliPortMapping(command.options.internet.routerGateways, log.line)
    : undefined;
  // The DHT where the room meets guests when the router maps nothing (--no-dht: none).
  const dht = command.options.internet
    ? startDhtNode({
        bootstrap: command.options.internet.dhtBootstrap,
        bindAddress: command.options.bindAddress,
        logger: lineLogger(log.line),
      })
    : undefined;
  let room: DedicatedHost;
  try {
    room = await startDedicatedHost(command.options, {
      log: log.line,
      ...(mapPort ? { mapPort } : {}),
      ...(dht ? { dht } : {}),
    });
  } catch (error) {
    await dht?.close();
    const message = error instanceof Error ? error.message : String(error);
    const text = `could not open the room: ${message.replace(/\.$/, '')}.${startFailureHint(error)}`;
    log.failure(text);
    process.stderr.write(`${PROGRAM}: ${text}\n`);
    return 1;
  }
  const closed = closeOnSignal(
    PROGRAM,
    async (signal) => {
      log.line(`${signal}: telling the players the room is closing`);
      await room.close();
      await dht?.close();
      log.line('Room closed');
    },
    // Under `npm run host`, npm forwards the terminal's Ctrl-C to us a second time.
    { expectRelayedSignal },
  );
  // Only now the banner, which says "Press Ctrl-C": a Ctrl-C that came before the handlers would kill the process
  // outright (Node's default), leaving guests to time out. A reader woken by the banner may run before this process
  // does again, so even the next line is too late (seen in CI: a lab's Ctrl-C right after the banner killed it).
  log.banner(room.banner);
  return closed;
}

runCli(PROGRAM, main);
