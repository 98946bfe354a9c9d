import { describe, expect, it, vi } from 'vitest';
import {
  denyWindowOpen,
  installNavigationGuards,
  preventNavigation,
  preventWebviewAttach,
  type GuardableContents,
} from '../../../../main/shell/window/navigationGuards';
import { loggerSpy } from '../../ipc/loggerSpy';

describe('navigation guards', () => {
  it('denies every new window', () => {
    const logger = loggerSpy();
    for (const url of ['https://example.com', 'file:///etc/passwd', 'about:blank']) {
      expect(denyWindowOpen({ url }, logger)).toEqual({ action: 'deny' });
    }
    expect(logger.warn).toHaveBeenCalledTimes(3);
  });

  it('cancels every navigation, even to our own origin', () => {
    for (const url of ['https://evil.example/', 'file:///app/dist/renderer/index.html']) {
      const event = { url, preventDefault: vi.fn() };
      preventNavigation(event, loggerSpy());
      expect(event.preventDefault).toHaveBeenCalledOnce();
    }
  });

  it('refuses webviews', () => {
    const event = { preventDefault: vi.fn() };
    preventWebviewAttach(event, loggerSpy());
    expect(event.preventDefault).toHaveBeenCalledOnce();
  });

  it('installs all three on a webContents', () => {
    const listeners = new Map<string, (event: unknown) => void>();
    let openHandler: ((details: { url: string }) => unknown) | null = null;
    const contents = {
      setWindowOpenHandler: vi.fn((handler) => {
        openHandler = handler;
      }),
      on: vi.fn((name: string, listener: (event: unknown) => void) => {
        listeners.set(name, listener);
        return contents;
      }),
    };
    installNavigationGuards(contents as unknown as GuardableContents, loggerSpy());
    expect(openHandler!({ url: 'https://x.example' })).toEqual({ action: 'deny' });
    const nav = { url: 'https://x.example', preventDefault: vi.fn() };
    listeners.get('will-navigate')!(nav);
    expect(nav.preventDefault).toHaveBeenCalledOnce();
    const webview = { preventDefault: vi.fn() };
    listeners.get('will-attach-webview')!(webview);
    expect(webview.preventDefault).toHaveBeenCalledOnce();
  });
});
