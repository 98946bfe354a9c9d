import type { Logger } from '../base/logger';
import { systemScheduler, type Scheduler } from '../base/scheduler';

/** The process surface used; Node's `process` satisfies it. */
export interface GuardedProcess {
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

/** Options of {@link installMainProcessGuard}. */
export interface MainProcessGuardOptions {
  readonly process: GuardedProcess;
  readonly logger: Logger;
  /** Closes the backend: an open room tells its guests it closed (backend.close()). */
  readonly closeRoom: () => Promise<void>;
  /** Tells the player what happened (a dialog in the app); must not throw. */
  readonly tellUser: (message: string) => void;
  /** Ends the process (app.exit). */
  readonly exit: (code: number) => void;
  /** Longest wait for the room to close before exiting anyway. Default 5 s. */
  readonly closeTimeoutMs?: number;
  /** Times the wait for the room; default real timers. */
  readonly scheduler?: Scheduler;
}

/**
 * Turns a main-process failure into an orderly exit: the error is logged, the hosted room is closed so its
 * guests hear "host closed" instead of timing out, the player is told, and the app exits with code 1. Main is
 * in an unknown state after an uncaught exception or an unhandled rejection, so it does not carry on.
 * Later failures while this runs are only logged.
 */
export function installMainProcessGuard(options: MainProcessGuardOptions): void {
  const { logger } = options;
  const scheduler = options.scheduler ?? systemScheduler;
  let failing = false;

  const fail = (what: string, error: unknown): void => {
    logger.error(`main process: ${what}`, error);
    if (failing) return;
    failing = true;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      try {
        options.tellUser(
          'LAN Party hit an unexpected error and has to close. A room you hosted was closed for its guests. ' +
            'Help → Open logs folder has the details for a bug report.',
        );
      } catch (tellError) {
        logger.error('could not tell the player about the error', tellError);
      }
      options.exit(1);
    };
    scheduler.setTimer(() => {
      logger.error('closing the room took too long; exiting anyway');
      finish();
    }, options.closeTimeoutMs ?? 5000);
    let closing: Promise<void>;
    try {
      closing = options.closeRoom();
    } catch (closeError) {
      closing = Promise.reject(closeError);
    }
    closing.catch((closeError: unknown) => logger.error('closing the room failed', closeError)).finally(finish);
  };

  options.process.on('uncaughtException', (error) => fail('uncaught exception', error));
  options.process.on('unhandledRejection', (reason) => fail('unhandled promise rejection', reason));
}
