import { describe, expect, it, vi } from 'vitest';
import { createErrorReporter, listenForErrors, MAX_QUEUED_REPORTS } from '../../renderer/src/api/errorReporter';
import { toErrorReport } from '../../renderer/src/logic/errorReport';
import { errorReportSchema, type ErrorReport } from '../../shared/ipc/schemas/appInfo';

describe('toErrorReport', () => {
  it('describes an Error by name and message, with its stack and the component stack after it', () => {
    const error = new TypeError('x is undefined');
    const report = toErrorReport('render', error, '\n    at Lobby\n    at App');
    expect(report).toEqual({
      source: 'render',
      message: 'TypeError: x is undefined',
      stack: `${error.stack}\nComponents:\n    at Lobby\n    at App`,
    });
  });

  it.each([
    ['text', 'text'],
    [{ code: 42 }, '{"code":42}'],
    [undefined, 'undefined'],
    [12n, '12'],
  ])('describes a thrown %s without a stack', (value, message) => {
    expect(toErrorReport('unhandled-rejection', value)).toEqual({ source: 'unhandled-rejection', message });
  });

  it('survives values that cannot be printed', () => {
    const hostile = {
      toJSON() {
        throw new Error('no');
      },
      toString() {
        throw new Error('no');
      },
    };
    expect(toErrorReport('window-error', hostile).message).toBe('a value that cannot be printed');
  });

  it('cuts message and stack to what the contract accepts', () => {
    const error = new Error('m'.repeat(5000));
    error.stack = 's'.repeat(20_000);
    const report = toErrorReport('window-error', error);
    expect(report.message).toHaveLength(2000);
    expect(report.message.endsWith('…')).toBe(true);
    expect(report.stack).toHaveLength(8000);
    expect(errorReportSchema.safeParse(report).success).toBe(true);
  });
});

function fakeApi() {
  const sent: ErrorReport[] = [];
  const api = { 'app.reportError': vi.fn(async (report: ErrorReport) => (sent.push(report), { logged: true })) };
  return { api, sent };
}

describe('createErrorReporter', () => {
  it('sends at once when connected', () => {
    const { api, sent } = fakeApi();
    const reporter = createErrorReporter(() => {});
    reporter.setApi(api);
    reporter.report('window-error', new Error('boom'));
    expect(sent).toMatchObject([{ source: 'window-error', message: 'Error: boom' }]);
  });

  it('queues the latest reports while disconnected and sends them on connecting', () => {
    const { api, sent } = fakeApi();
    const reporter = createErrorReporter(() => {});
    for (let i = 0; i < MAX_QUEUED_REPORTS + 5; i += 1) reporter.report('render', `error ${i}`);
    expect(sent).toEqual([]);
    reporter.setApi(api);
    expect(sent.map((r) => r.message)).toEqual(Array.from({ length: MAX_QUEUED_REPORTS }, (_, i) => `error ${i + 5}`));
    reporter.setApi(null);
    reporter.report('render', 'while away');
    expect(sent).toHaveLength(MAX_QUEUED_REPORTS);
    reporter.setApi(api);
    expect(sent.at(-1)?.message).toBe('while away');
  });

  it('a report that cannot be sent is a warning, not another unhandled rejection', async () => {
    const warn = vi.fn();
    const reporter = createErrorReporter(warn);
    const failure = new Error('backend gone');
    reporter.setApi({ 'app.reportError': () => Promise.reject(failure) });
    reporter.report('window-error', 'x');
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('could not send an error report', failure));
  });
});

describe('listenForErrors', () => {
  it('reports window errors and unhandled rejections until cleaned up', () => {
    const target = new EventTarget();
    const reports: unknown[][] = [];
    const reporter = { report: (...args: unknown[]) => void reports.push(args), setApi: () => {} };
    const stop = listenForErrors(target, reporter);
    const error = new Error('boom');
    target.dispatchEvent(Object.assign(new Event('error'), { error, message: 'boom' }));
    // A cross-origin script error: no error object, only a message.
    target.dispatchEvent(Object.assign(new Event('error'), { error: null, message: 'Script error.' }));
    target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: 'nope' }));
    expect(reports).toEqual([
      ['window-error', error],
      ['window-error', 'Script error.'],
      ['unhandled-rejection', 'nope'],
    ]);
    stop();
    target.dispatchEvent(Object.assign(new Event('error'), { error }));
    expect(reports).toHaveLength(3);
  });
});
