import type { LanPartyApi } from '../../../shared/ipc/api';
import type { ErrorReport, ErrorSource } from '../../../shared/ipc/schemas/appInfo';
import { toErrorReport } from '../logic/errorReport';

/** Reports kept while there is no backend to send them to (at start-up, or while reconnecting). */
export const MAX_QUEUED_REPORTS = 10;

/** Sends the page's errors to main's log through `app.reportError`. */
export interface ErrorReporter {
  /** Reports one error; never throws. */
  report(source: ErrorSource, error: unknown, componentStack?: string): void;
  /** The API to send through, or null while disconnected; what was queued meanwhile goes out now. */
  setApi(api: Pick<LanPartyApi, 'app.reportError'> | null): void;
}

/** Creates the reporter; `warn` hears about reports that could not be sent (the console, in the app). */
export function createErrorReporter(warn: (message: string, error: unknown) => void): ErrorReporter {
  let api: Pick<LanPartyApi, 'app.reportError'> | null = null;
  const queue: ErrorReport[] = [];
  const send = (report: ErrorReport): void => {
    if (!api) {
      // Keep the latest: the most recent errors say most about a page that is failing now.
      if (queue.push(report) > MAX_QUEUED_REPORTS) queue.shift();
      return;
    }
    // A failed report must not become an unhandled rejection, which would be reported again.
    api['app.reportError'](report).catch((error: unknown) => warn('could not send an error report', error));
  };
  return {
    report(source, error, componentStack) {
      try {
        send(toErrorReport(source, error, componentStack));
      } catch (failure) {
        warn('could not send an error report', failure);
      }
    },
    setApi(next) {
      api = next;
      if (api) for (const report of queue.splice(0)) send(report);
    },
  };
}

/** The window events {@link listenForErrors} reads; the browser's Window fits. */
export interface ErrorEventSource {
  addEventListener(type: string, listener: (event: object) => void): void;
  removeEventListener(type: string, listener: (event: object) => void): void;
}

/**
 * Reports the window's uncaught errors and unhandled promise rejections; returns the cleanup. A cross-origin
 * script error carries no error object, only its message, which is reported instead.
 */
export function listenForErrors(target: ErrorEventSource, reporter: ErrorReporter): () => void {
  const onError = (event: object): void => {
    const { error, message } = event as { error?: unknown; message?: unknown };
    reporter.report('window-error', error ?? message ?? 'unknown error');
  };
  const onRejection = (event: object): void => {
    reporter.report('unhandled-rejection', (event as { reason?: unknown }).reason);
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
