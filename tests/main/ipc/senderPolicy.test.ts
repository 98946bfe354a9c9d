import { describe, expect, it } from 'vitest';
import { isTrustedSender, type TrustFrame } from '../../../main/ipc/senderPolicy';

const APP_URL = 'file:///opt/lan-party/dist/renderer/index.html';
const isAppUrl = (url: string): boolean => url.split('#')[0] === APP_URL;

function frame(overrides: Partial<TrustFrame> = {}): TrustFrame {
  return { url: APP_URL, processId: 4, routingId: 1, detached: false, ...overrides };
}

function window(mainFrame: TrustFrame, destroyed = false) {
  const webContents = { mainFrame };
  return { isDestroyed: () => destroyed, webContents };
}

describe('IPC sender policy', () => {
  it('trusts our window main frame showing our page', () => {
    const main = frame();
    const win = window(main);
    expect(isTrustedSender({ sender: win.webContents, senderFrame: main }, win, isAppUrl)).toBe(true);
    const sameFrameOtherWrapper = frame();
    expect(isTrustedSender({ sender: win.webContents, senderFrame: sameFrameOtherWrapper }, win, isAppUrl)).toBe(true);
  });

  it('rejects a subframe of our window', () => {
    const main = frame();
    const win = window(main);
    const sub = frame({ routingId: 2 });
    expect(isTrustedSender({ sender: win.webContents, senderFrame: sub }, win, isAppUrl)).toBe(false);
  });

  it('rejects a frame in another renderer process', () => {
    const main = frame();
    const win = window(main);
    expect(isTrustedSender({ sender: win.webContents, senderFrame: frame({ processId: 9 }) }, win, isAppUrl)).toBe(
      false,
    );
  });

  it('rejects another webContents', () => {
    const main = frame();
    const win = window(main);
    expect(isTrustedSender({ sender: { mainFrame: main }, senderFrame: main }, win, isAppUrl)).toBe(false);
  });

  it('rejects our main frame after it navigated elsewhere', () => {
    const main = frame({ url: 'https://evil.example/' });
    const win = window(main);
    expect(isTrustedSender({ sender: win.webContents, senderFrame: main }, win, isAppUrl)).toBe(false);
  });

  it('rejects a missing or detached frame, and a missing or destroyed window', () => {
    const main = frame();
    const win = window(main);
    expect(isTrustedSender({ sender: win.webContents, senderFrame: null }, win, isAppUrl)).toBe(false);
    const detached = frame({ detached: true });
    const win2 = window(detached);
    expect(isTrustedSender({ sender: win2.webContents, senderFrame: detached }, win2, isAppUrl)).toBe(false);
    expect(isTrustedSender({ sender: win.webContents, senderFrame: main }, null, isAppUrl)).toBe(false);
    const dead = window(main, true);
    expect(isTrustedSender({ sender: dead.webContents, senderFrame: main }, dead, isAppUrl)).toBe(false);
  });
});
