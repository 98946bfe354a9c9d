import { describe, expect, it, vi } from 'vitest';
import {
  applyPermissionPolicy,
  denyAllPermissions,
  isPermissionAllowed,
  type PermissionSession,
} from '../../../../main/shell/window/permissions';
import { loggerSpy } from '../../ipc/loggerSpy';

function fakeSession() {
  const handlers: Record<string, (...args: never[]) => unknown> = {};
  const session = {
    setPermissionRequestHandler: vi.fn((h) => (handlers.request = h)),
    setPermissionCheckHandler: vi.fn((h) => (handlers.check = h)),
    setDevicePermissionHandler: vi.fn((h) => (handlers.device = h)),
  };
  return {
    session: session as unknown as PermissionSession,
    handlers: handlers as Record<string, (...a: unknown[]) => unknown>,
  };
}

describe('permission handlers', () => {
  it('deny every permission request', () => {
    const { session, handlers } = fakeSession();
    denyAllPermissions(session, loggerSpy());
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'openExternal',
      'clipboard-read',
      'fullscreen',
    ]) {
      const callback = vi.fn();
      handlers.request!({}, permission, callback, {});
      expect(callback).toHaveBeenCalledExactlyOnceWith(false);
    }
  });

  it('answer every permission check and device check with false', () => {
    const { session, handlers } = fakeSession();
    denyAllPermissions(session, loggerSpy());
    for (const permission of ['media', 'hid', 'serial', 'usb', 'clipboard-sanitized-write']) {
      expect(handlers.check!(null, permission, 'file://', {})).toBe(false);
    }
    expect(handlers.device!({ deviceType: 'usb' })).toBe(false);
  });
});

describe('permission policy with the clipboard allowed for the app', () => {
  const app = 'file:///opt/lan-party/resources/app/dist/renderer/index.html';
  const isAppUrl = (url: string) => url === app;

  it('allows only a sanitized clipboard write, only from the app page in the main frame', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', { requestingUrl: app, isMainFrame: true }, isAppUrl)).toBe(
      true,
    );
    expect(isPermissionAllowed('clipboard-sanitized-write', { requestingUrl: app, isMainFrame: false }, isAppUrl)).toBe(
      false,
    );
    expect(
      isPermissionAllowed(
        'clipboard-sanitized-write',
        { requestingUrl: 'https://evil.test/', isMainFrame: true },
        isAppUrl,
      ),
    ).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', {}, isAppUrl)).toBe(false);
    expect(isPermissionAllowed('clipboard-read', { requestingUrl: app, isMainFrame: true }, isAppUrl)).toBe(false);
  });

  it('wires the same rule into the request and check handlers, and still denies devices', () => {
    const { session, handlers } = fakeSession();
    const logger = loggerSpy();
    applyPermissionPolicy(session, logger, isAppUrl);
    const allowed = vi.fn();
    handlers.request!({}, 'clipboard-sanitized-write', allowed, { requestingUrl: app, isMainFrame: true });
    expect(allowed).toHaveBeenCalledExactlyOnceWith(true);
    const denied = vi.fn();
    handlers.request!({}, 'media', denied, { requestingUrl: app, isMainFrame: true });
    expect(denied).toHaveBeenCalledExactlyOnceWith(false);
    expect(logger.warn).toHaveBeenCalledOnce();
    expect(
      handlers.check!(null, 'clipboard-sanitized-write', 'file://', { requestingUrl: app, isMainFrame: true }),
    ).toBe(true);
    expect(handlers.check!(null, 'clipboard-read', 'file://', { requestingUrl: app, isMainFrame: true })).toBe(false);
    expect(handlers.device!({ deviceType: 'usb' })).toBe(false);
  });

  it('denyAllPermissions still refuses the clipboard', () => {
    const { session, handlers } = fakeSession();
    denyAllPermissions(session, loggerSpy());
    const callback = vi.fn();
    handlers.request!({}, 'clipboard-sanitized-write', callback, { requestingUrl: app, isMainFrame: true });
    expect(callback).toHaveBeenCalledExactlyOnceWith(false);
  });
});
