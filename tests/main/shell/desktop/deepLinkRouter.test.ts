import { describe, expect, it, vi } from 'vitest';
import { createDeepLinkRouter, isDeepLinkArg } from '../../../../main/shell/desktop/deepLinkRouter';
import { encode } from '../../../../shared/roomCode';
import { encodeDirectCode } from '../../../../shared/rendezvous';
import { loggerSpy } from '../../ipc/loggerSpy';

const code = encode('192.168.1.20', 9000);
const other = encode('192.168.1.21', 9000);

describe('deep link router', () => {
  it('keeps the latest link that comes before connect and delivers it on connect', () => {
    const router = createDeepLinkRouter(loggerSpy());
    expect(router.handle(`lanparty://join/${other}`)).toBe(true);
    expect(router.handle(`lanparty://join/${code}`)).toBe(true);
    const deliver = vi.fn();
    router.connect(deliver);
    expect(deliver).toHaveBeenCalledExactlyOnceWith({ kind: 'join', code });
    router.handle(`lanparty://join/${other}`);
    expect(deliver).toHaveBeenLastCalledWith({ kind: 'join', code: other });
    expect(deliver).toHaveBeenCalledTimes(2);
  });

  it('delivers an internet invite (a direct room’s NET- code) like a LAN code', () => {
    const router = createDeepLinkRouter(loggerSpy());
    const deliver = vi.fn();
    router.connect(deliver);
    const direct = encodeDirectCode('203.0.113.7', 45123, 'XA4H0RBN3');
    expect(router.handle(`lanparty://join/${direct.toLowerCase()}`)).toBe(true);
    expect(deliver).toHaveBeenCalledExactlyOnceWith({ kind: 'join', code: direct });
  });

  it('logs and drops a bad link, without echoing it', () => {
    const logger = loggerSpy();
    const router = createDeepLinkRouter(logger);
    const deliver = vi.fn();
    router.connect(deliver);
    expect(router.handle('lanparty://join/../../etc?token=hunter2')).toBe(false);
    expect(router.handle('https://evil.example/')).toBe(false);
    expect(router.handle(42)).toBe(false);
    expect(deliver).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledTimes(3);
    expect(logger.warn.mock.calls.flat().join(' ')).not.toContain('hunter2');
  });

  it('finds the link among a launch’s arguments (Windows and Linux) and ignores the rest', () => {
    const logger = loggerSpy();
    const router = createDeepLinkRouter(logger);
    const deliver = vi.fn();
    router.connect(deliver);
    router.handleArgv(['C:\\LAN Party\\LAN Party.exe', '--allow-file-access-from-files', `LANPARTY://join/${code}`]);
    expect(deliver).toHaveBeenCalledExactlyOnceWith({ kind: 'join', code });
    router.handleArgv(['/usr/bin/lan-party', '.', 'https://example.org/']);
    expect(deliver).toHaveBeenCalledOnce();
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('tells link arguments from others', () => {
    expect(isDeepLinkArg('lanparty://join/x')).toBe(true);
    expect(isDeepLinkArg('LanParty:whatever')).toBe(true);
    expect(isDeepLinkArg('--lanparty://join/x')).toBe(false);
    expect(isDeepLinkArg('/home/ada/lanparty')).toBe(false);
  });
});
