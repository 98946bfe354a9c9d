import type { IpcContract } from '../../shared/ipc/contract';
import type { ErrorSource } from '../../shared/ipc/schemas/appInfo';
import type { Logger } from '../base/logger';
import type { HandlersOf } from '../ipc/handlerTypes';
import { ReportLimiter } from '../base/reportLimiter';
import { backgroundScheduler, type Scheduler } from '../base/scheduler';

/** Renderer errors logged per minute; the rest become one "n more suppressed" line. */
export const RENDERER_ERRORS_PER_MINUTE = 20;

const MINUTE_MS = 60_000;

/** What the handler needs; time and the timer are injected so tests can run the minute in a moment. */
export interface RendererErrorDeps {
  readonly logger: Logger;
  /** Its clock times the minute, its timer reports the suppressed; default real time, timers that keep no process up. */
  readonly scheduler?: Scheduler;
}

const SOURCES: Readonly<Record<ErrorSource, string>> = {
  'window-error': 'uncaught error',
  'unhandled-rejection': 'unhandled promise rejection',
  render: 'error while rendering',
};

// One report is one log line (its stack indented below it): a message cannot forge lines of its own.
const oneLine = (text: string): string => text.replace(/\p{Cc}+/gu, ' ').trim();
const indented = (stack: string): string =>
  stack
    .split(/\r?\n/)
    .map((line) => `    ${oneLine(line)}`)
    .join('\n');

/**
 * The gateway handler for `app.reportError`: writes the renderer's error to main's log (the file a support
 * request sends), at most {@link RENDERER_ERRORS_PER_MINUTE} a minute so a page stuck in an error loop cannot
 * fill the disk.
 */
export function rendererErrorHandlers(deps: RendererErrorDeps): Pick<HandlersOf<IpcContract>, 'app.reportError'> {
  const scheduler = deps.scheduler ?? backgroundScheduler;
  const limiter = new ReportLimiter(RENDERER_ERRORS_PER_MINUTE, MINUTE_MS);
  let flushPending = false;

  const flush = (): void => {
    const count = limiter.drainSuppressed();
    if (count > 0) {
      deps.logger.warn(
        `renderer: ${count} more error ${count === 1 ? 'report' : 'reports'} suppressed ` +
          `(at most ${RENDERER_ERRORS_PER_MINUTE} a minute are logged)`,
      );
    }
  };

  return {
    'app.reportError': (report) => {
      const at = scheduler.now();
      if (limiter.windowOver(at)) flush();
      if (!limiter.admit(at)) {
        if (!flushPending) {
          flushPending = true;
          scheduler.setTimer(() => {
            flushPending = false;
            flush();
          }, limiter.windowEndsAt() - at);
        }
        return { logged: false };
      }
      const line = `renderer: ${SOURCES[report.source]}: ${oneLine(report.message) || '(no message)'}`;
      if (report.stack) deps.logger.error(line, `\n${indented(report.stack)}`);
      else deps.logger.error(line);
      return { logged: true };
    },
  };
}
