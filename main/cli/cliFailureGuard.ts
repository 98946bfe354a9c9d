import { RendezvousError } from '../../shared/rendezvous';
import { BindError, ConnectError } from '../net/index';

/** The process surface used; Node's `process` satisfies it. */
export interface CliGuardedProcess {
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

/** Options of {@link installCliFailureGuard}. */
export interface CliFailureGuardOptions {
  readonly program: string;
  readonly process: CliGuardedProcess;
  /** One line of the host's log (stdout and the --log-file). */
  readonly log: (line: string) => void;
  readonly stderr: (text: string) => void;
  readonly exit: (code: number) => void;
}

/**
 * A failure of the network, not of the program: a socket or lookup error from the system (it names the system
 * call), a rendezvous that refused or went away, a port or a peer that failed. (An ICE path that did not connect
 * is the internet room's to log: it never leaves it unhandled.)
 */
export function isNetworkFailure(reason: unknown): boolean {
  if (reason instanceof RendezvousError || reason instanceof BindError || reason instanceof ConnectError) return true;
  const system = reason as Partial<NodeJS.ErrnoException> | null;
  return reason instanceof Error && typeof system?.syscall === 'string' && typeof system.code === 'string';
}

function describe(reason: unknown): string {
  return reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
}

/**
 * Keeps the headless host up through the network's failures: a rejection nothing handled whose reason is a
 * network failure (one guest's path, a rendezvous reconnect, a socket) is logged, and the room carries on for
 * everyone else. Anything else is a bug, and main is in an unknown state: it is said on stderr and in the log,
 * and the host exits with code 1.
 */
export function installCliFailureGuard(options: CliFailureGuardOptions): void {
  const fail = (what: string, reason: unknown): void => {
    const text = `${options.program}: ${what} (a bug), closing: ${describe(reason)}`;
    options.log(text);
    options.stderr(`${text}\n`);
    options.exit(1);
  };
  options.process.on('unhandledRejection', (reason) => {
    if (!isNetworkFailure(reason)) return fail('unexpected error', reason);
    const message = reason instanceof Error ? reason.message : String(reason);
    options.log(`a network task failed, the room carries on: ${message}`);
  });
  options.process.on('uncaughtException', (error) => fail('uncaught exception', error));
}
