import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../main/base/logger';
import { RENDERER_ERRORS_PER_MINUTE, rendererErrorHandlers } from '../../../main/shell/rendererErrorHandlers';
import type { RequestContext } from '../../../main/ipc/handlerTypes';
import { ManualScheduler } from '../../support/manualScheduler';

const context: RequestContext = { transport: 'electron' };
/** The handler answers at once (it only logs). */
type Logged = { logged: boolean };

function setup() {
  const lines: { level: string; text: string }[] = [];
  const record =
    (level: string) =>
    (message: string, ...details: unknown[]) =>
      void lines.push({ level, text: [message, ...details].join(' ') });
  const logger: Logger = { info: record('info'), warn: record('warn'), error: record('error') };
  const scheduler = new ManualScheduler(0);
  const handlers = rendererErrorHandlers({ logger, scheduler });
  const report = (message: string, stack?: string) =>
    handlers['app.reportError']({ source: 'window-error', message, ...(stack ? { stack } : {}) }, context) as Logged;
  const advance = (ms: number) => scheduler.advance(ms);
  return { lines, report, advance, scheduler, handlers };
}

describe('app.reportError', () => {
  it('logs the error with its source, the stack indented under it', () => {
    const { lines, report, handlers } = setup();
    expect(report('boom', 'Error: boom\n    at render (App.tsx:3:9)\nat next')).toEqual({ logged: true });
    expect(lines).toEqual([
      {
        level: 'error',
        text: 'renderer: uncaught error: boom \n    Error: boom\n    at render (App.tsx:3:9)\n    at next',
      },
    ]);
    handlers['app.reportError']({ source: 'unhandled-rejection', message: 'nope' }, context);
    handlers['app.reportError']({ source: 'render', message: '' }, context);
    expect(lines.slice(1).map((l) => l.text)).toEqual([
      'renderer: unhandled promise rejection: nope',
      'renderer: error while rendering: (no message)',
    ]);
  });

  it('keeps a report on one line: control characters in the message cannot forge log lines', () => {
    const { lines, report } = setup();
    report('first\n[2026-01-01 00:00:00.000] [info] (main) forged\u0007');
    expect(lines[0]?.text).toBe('renderer: uncaught error: first [2026-01-01 00:00:00.000] [info] (main) forged');
  });

  it(`logs ${RENDERER_ERRORS_PER_MINUTE} a minute, then one line for the rest when the minute is over`, () => {
    const { lines, report, advance, scheduler } = setup();
    const results = Array.from({ length: 50 }, (_, i) => report(`error ${i}`).logged);
    expect(results.filter(Boolean)).toHaveLength(RENDERER_ERRORS_PER_MINUTE);
    expect(results.slice(RENDERER_ERRORS_PER_MINUTE).every((logged) => !logged)).toBe(true);
    expect(lines).toHaveLength(RENDERER_ERRORS_PER_MINUTE);
    expect(scheduler.pending).toBe(1);
    advance(59_999);
    expect(lines).toHaveLength(RENDERER_ERRORS_PER_MINUTE);
    advance(1);
    expect(lines.at(-1)).toEqual({
      level: 'warn',
      text: `renderer: 30 more error reports suppressed (at most ${RENDERER_ERRORS_PER_MINUTE} a minute are logged)`,
    });
    // A new minute has a new budget.
    expect(report('after').logged).toBe(true);
    expect(lines.at(-1)?.text).toBe('renderer: uncaught error: after');
  });

  it('a report after the minute says what was suppressed before it, should the timer not have run', () => {
    const lines: string[] = [];
    let time = 0;
    // A clock whose timer never runs.
    const scheduler = { now: () => time, setTimer: () => 0, setRepeating: () => 0, clearTimer: () => {} };
    const handlers = rendererErrorHandlers({
      logger: { info: () => {}, warn: (m) => void lines.push(m), error: (m) => void lines.push(m) },
      scheduler,
    });
    const report = (message: string) => handlers['app.reportError']({ source: 'render', message }, context) as Logged;
    for (let i = 0; i <= RENDERER_ERRORS_PER_MINUTE; i += 1) report(`error ${i}`);
    lines.splice(0);
    time = 60_000;
    expect(report('next').logged).toBe(true);
    expect(lines).toEqual([
      `renderer: 1 more error report suppressed (at most ${RENDERER_ERRORS_PER_MINUTE} a minute are logged)`,
      'renderer: error while rendering: next',
    ]);
  });
});
