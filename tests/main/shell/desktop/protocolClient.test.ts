import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { registerProtocolClient, type ProtocolApp } from '../../../../main/shell/desktop/protocolClient';
import { loggerSpy } from '../../ipc/loggerSpy';

function fakeApp(result: boolean | Error = true) {
  const setAsDefaultProtocolClient = vi.fn((..._args: unknown[]) => {
    if (result instanceof Error) throw result;
    return result;
  });
  return { app: { setAsDefaultProtocolClient } as ProtocolApp, setAsDefaultProtocolClient };
}

describe('registerProtocolClient', () => {
  it('a packaged app registers itself for lanparty:// on every platform', () => {
    for (const platform of ['win32', 'darwin', 'linux']) {
      const { app, setAsDefaultProtocolClient } = fakeApp();
      const proc = { platform, defaultApp: false, execPath: '/opt/LAN Party/lan-party', argv: ['/opt/lan-party'] };
      expect(registerProtocolClient(app, proc, loggerSpy())).toBe(true);
      expect(setAsDefaultProtocolClient).toHaveBeenCalledExactlyOnceWith('lanparty');
    }
  });

  it('a development run on Windows registers Electron with the app path, so a click starts this app', () => {
    const { app, setAsDefaultProtocolClient } = fakeApp();
    const proc = { platform: 'win32', defaultApp: true, execPath: 'C:\\electron.exe', argv: ['C:\\electron.exe', '.'] };
    expect(registerProtocolClient(app, proc, loggerSpy())).toBe(true);
    expect(setAsDefaultProtocolClient).toHaveBeenCalledExactlyOnceWith('lanparty', 'C:\\electron.exe', [resolve('.')]);
  });

  it('a development run on Windows without an app path registers nothing, and says why', () => {
    const { app, setAsDefaultProtocolClient } = fakeApp();
    const logger = loggerSpy();
    const proc = { platform: 'win32', defaultApp: true, execPath: 'C:\\electron.exe', argv: ['C:\\electron.exe'] };
    expect(registerProtocolClient(app, proc, logger)).toBe(false);
    expect(setAsDefaultProtocolClient).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledOnce();
  });

  it('logs a refusal or a throw from the OS instead of failing startup', () => {
    const logger = loggerSpy();
    const proc = { platform: 'linux', execPath: '/usr/bin/lan-party', argv: [] };
    expect(registerProtocolClient(fakeApp(false).app, proc, logger)).toBe(false);
    expect(registerProtocolClient(fakeApp(new Error('xdg-settings missing')).app, proc, logger)).toBe(false);
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });
});
