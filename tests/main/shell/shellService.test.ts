import { describe, expect, it, vi } from 'vitest';
import { IpcError } from '../../../shared/ipc/errors';
import { createShellService } from '../../../main/shell/shellService';
import { shellHandlers } from '../../../main/shell/shellHandlers';

const link = { kind: 'join', code: 'ABCDE-FGHJK' } as const;
const context = { transport: 'electron' } as const;

function setup() {
  const emit = vi.fn();
  const shell = createShellService(emit);
  return { shell, emit, handlers: shellHandlers(shell) };
}

describe('shell service: links and notices', () => {
  it('keeps a link that comes before the page asks, hands it over once, then sends later ones as events', async () => {
    const { shell, emit, handlers } = setup();
    shell.deliverDeepLink({ kind: 'join', code: 'OLDER-00000' });
    shell.deliverDeepLink(link);
    expect(emit).not.toHaveBeenCalled();
    expect(await handlers['app.pending'](undefined, context)).toEqual({ deepLink: link, notice: null });
    expect(await handlers['app.pending'](undefined, context)).toEqual({ deepLink: null, notice: null });
    shell.deliverDeepLink(link);
    expect(emit).toHaveBeenCalledExactlyOnceWith('app.deepLink', link);
  });

  it('holds links and notices again while the page reloads, and delivers them to the new page', () => {
    const { shell, emit } = setup();
    shell.takePending();
    shell.pageGone();
    shell.notice({ kind: 'renderer-crashed' });
    shell.deliverDeepLink(link);
    expect(emit).not.toHaveBeenCalled();
    expect(shell.takePending()).toEqual({ deepLink: link, notice: { kind: 'renderer-crashed' } });
    shell.notice({ kind: 'renderer-hung' });
    expect(emit).toHaveBeenCalledExactlyOnceWith('app.notice', { kind: 'renderer-hung' });
  });

  it('sends a menu command only to a listening page', () => {
    const { shell, emit } = setup();
    shell.showScreen('netcheck');
    expect(emit).not.toHaveBeenCalled();
    shell.takePending();
    shell.showScreen('netcheck');
    expect(emit).toHaveBeenCalledExactlyOnceWith('app.openScreen', { screen: 'netcheck' });
    expect(shell.takePending()).toEqual({ deepLink: null, notice: null });
  });
});

describe('shell service: updates', () => {
  it('starts disabled and pushes every status change', async () => {
    const { shell, emit, handlers } = setup();
    expect(await handlers['app.updateStatus'](undefined, context)).toEqual({ state: 'disabled' });
    shell.setUpdateStatus({ state: 'downloading', version: '1.2.0' });
    expect(emit).toHaveBeenCalledWith('app.update', { state: 'downloading', version: '1.2.0' });
    expect(await handlers['app.updateStatus'](undefined, context)).toEqual({ state: 'downloading', version: '1.2.0' });
  });

  it('installs only a downloaded update, through the installer the shell set', async () => {
    const { shell, handlers } = setup();
    const install = vi.fn(async () => {});
    shell.setInstaller(install);
    shell.setUpdateStatus({ state: 'downloading', version: '1.2.0' });
    const early = await Promise.resolve(handlers['app.installUpdate'](undefined, context)).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(IpcError);
    expect(early).toMatchObject({ code: 'failed-precondition', message: 'No update is ready to install yet.' });
    expect(install).not.toHaveBeenCalled();
    shell.setUpdateStatus({ state: 'ready', version: '1.2.0' });
    expect(await handlers['app.installUpdate'](undefined, context)).toEqual({ state: 'ready', version: '1.2.0' });
    expect(install).toHaveBeenCalledOnce();
  });

  it('refuses to install when no installer was set (the dev server)', async () => {
    const { shell } = setup();
    shell.setUpdateStatus({ state: 'ready', version: '1.2.0' });
    await expect(shell.installUpdate()).rejects.toMatchObject({ code: 'failed-precondition' });
  });
});
