import { describe, expect, it, vi } from 'vitest';
import { denyAllPermissions, type PermissionSession } from '../../../main/app/permissions';
import { loggerSpy } from '../ipc/loggerSpy';

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
