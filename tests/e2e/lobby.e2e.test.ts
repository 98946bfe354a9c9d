import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteLink, parseDeepLink } from '../../shared/deepLink';
import { decode } from '../../shared/roomCode';
import { LobbyGuest } from '../../main/lobby/lobbyGuest';
import { freeUdpPort, loopbackNetwork } from '../support/loopbackNetwork';
import { startOfferStripper } from '../support/offerStripper';
import { chromiumSkipReason } from './support/chromium';
import { coverOf } from './support/coverage';
import { openE2eSession, type E2ePlayer, type E2eSession } from './support/e2eSession';
import { completeFirstRun } from './support/firstRun';

// Two real backends (loopback only: rooms on 127.0.0.1, discovery on a shared random port searched via
// 127.255.255.255) and two pages of the production build: Ada hosts, Bob finds and joins.
const skipReason = chromiumSkipReason();
if (skipReason) console.warn(`[e2e] skipping browser tests: ${skipReason}`);

const visible = (page: Page, role: Parameters<Page['getByRole']>[0], name: string | RegExp) =>
  page.getByRole(role, { name }).first().isVisible();

describe.skipIf(skipReason !== null)('lobby in Chromium: host, find, join, chat, start', { timeout: 60_000 }, () => {
  let session: E2eSession;
  let ada: E2ePlayer;
  let bob: E2ePlayer;
  let code = '';

  beforeAll(async () => {
    const discoveryPort = await freeUdpPort();
    // The round never ends on its own while its screens are read ("Round in progress"); closing the room ends it.
    session = await openE2eSession(2, {
      osUserNames: ['ada', 'bob'],
      network: loopbackNetwork(discoveryPort),
      game: { roundDuration: 600 },
    });
    [ada, bob] = session.players as [E2ePlayer, E2ePlayer];
    for (const { server } of [ada, bob]) {
      await session.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    }
  }, 60_000);

  afterAll(async () => {
    await session?.close();
  });

  it('starts with the first-run step, then the home screen', async () => {
    await ada.focus();
    await expect.poll(() => ada.page.getByLabel('Player name').inputValue()).toBe('ada');
    await session.screenshot(ada.page, 'lobby-first-run');
    await completeFirstRun(ada.page);
    await session.screenshot(ada.page, 'lobby-home');
    await bob.focus();
    await completeFirstRun(bob.page);
  });

  it('an empty LAN list says what to check and links to the network check', async () => {
    const { page } = bob;
    await bob.focus();
    await page.getByRole('button', { name: /Browse the LAN/ }).click();
    await expect.poll(() => visible(page, 'heading', 'No rooms found yet')).toBe(true);
    expect(await page.getByText('Same network.').isVisible()).toBe(true);
    expect(await visible(page, 'button', 'Run the network check')).toBe(true);
    await session.screenshot(page, 'lobby-lan-empty');
    // The radar pings while it searches, unless the OS asks for less motion (as these browsers do): then it is still.
    const endless = () =>
      page.evaluate(() => {
        type Running = { effect: { getTiming(): { iterations?: number } } | null };
        const doc = (globalThis as unknown as { document: { getAnimations(): Running[] } }).document;
        return doc.getAnimations().filter((a) => a.effect?.getTiming().iterations === Infinity).length;
      });
    expect(await page.locator('.radar-active').count()).toBe(1);
    expect(await endless()).toBe(0);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect.poll(endless).toBe(1);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect.poll(endless).toBe(0);
    await page.getByRole('button', { name: 'Back to home' }).click();
  });

  it('hosts a room with the defaults and shows its code large', async () => {
    const { page } = ada;
    await ada.focus();
    await page.getByRole('button', { name: /Host a room/ }).click();
    expect(await page.getByLabel('Room name').getAttribute('placeholder')).toBe("ada's room");
    expect(await page.getByLabel('Players').inputValue()).toBe('8');
    await page.getByText('Advanced').click();
    await session.screenshot(page, 'lobby-host-form');
    await page.getByRole('button', { name: 'Open room' }).click();
    await expect.poll(() => visible(page, 'heading', "ada's room")).toBe(true);
    // The short LAN code first; the full gale.net code one click away.
    expect(await page.getByTestId('room-code').textContent()).toMatch(/^[0-9A-Z]{5,7}$/);
    await page.getByRole('button', { name: 'Code for gale.net games' }).click();
    code = (await page.getByTestId('room-code').textContent()) ?? '';
    expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(decode(code).host).toBe('127.0.0.1');
    expect(await page.getByText(`127.0.0.1:${decode(code).port}`).isVisible()).toBe(true);
    const start = page.getByRole('button', { name: 'Start round' });
    expect(await start.isDisabled()).toBe(true);
    expect(await page.getByText('Waiting for at least one more player to join.').isVisible()).toBe(true);
  });

  it('copies the room code to the clipboard', async () => {
    const { page } = ada;
    await ada.focus();
    await page.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(() => page.getByText('Copied to the clipboard.').isVisible()).toBe(true);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(code);
  });

  it('copies an invite link that carries the room code', async () => {
    const { page } = ada;
    await ada.focus();
    await page.getByRole('button', { name: 'Copy invite link' }).click();
    await expect.poll(() => page.getByText('Invite link copied').isVisible()).toBe(true);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(inviteLink(code));
    await session.screenshot(page, 'lobby-invite-copied');
  });

  it('the LAN list on the other page shows the room live', async () => {
    const { page } = bob;
    await bob.focus();
    await page.getByRole('button', { name: /Browse the LAN/ }).click();
    await expect.poll(() => page.getByText("ada's room").isVisible(), { timeout: 5000 }).toBe(true);
    expect(await page.getByText(`LAN Party Tag · 127.0.0.1:${decode(code).port}`).isVisible()).toBe(true);
    expect(await visible(page, 'button', "Join ada's room")).toBe(true);
    await session.screenshot(page, 'lobby-lan-with-room');
    await page.getByRole('button', { name: 'Back to home' }).click();
  });

  it('explains a mistyped code precisely: which character, where', async () => {
    const { page } = bob;
    await bob.focus();
    await page.getByRole('button', { name: /Join with a code/ }).click();
    const field = page.getByLabel('Room code');
    await field.pressSequentially('ab#cd');
    const hint = page.locator('#room-code-hint');
    // The field keeps what was typed while a character is wrong, so the position matches what is on screen.
    await expect.poll(() => hint.textContent()).toContain("'#' at position 3 is not used in room codes");
    expect(await field.inputValue()).toBe('AB#cd');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: 'Join room' }).isDisabled()).toBe(true);
    await session.screenshot(page, 'lobby-join-error');
    await field.fill('');
  });

  it('Escape goes back from the join screen, even from inside the code field', async () => {
    await bob.focus();
    expect(await visible(bob.page, 'heading', 'Join a room')).toBe(true);
    await bob.page.getByLabel('Room code').press('Escape');
    await expect.poll(() => visible(bob.page, 'heading', /Ready to play/)).toBe(true);
    expect(await bob.page.getByRole('heading', { name: 'Join a room' }).count()).toBe(0);
    // Escape on home goes nowhere.
    await bob.page.keyboard.press('Escape');
    expect(await visible(bob.page, 'heading', /Ready to play/)).toBe(true);
    await bob.page.getByRole('button', { name: /Join with a code/ }).click();
    await expect.poll(() => visible(bob.page, 'heading', 'Join a room')).toBe(true);
  });

  it('an invite link opens the join screen with the code filled in, and joins only on the click', async () => {
    await bob.focus();
    await bob.page.getByRole('button', { name: 'Back to home' }).click();
    await expect.poll(() => visible(bob.page, 'heading', /Ready to play/)).toBe(true);
    // What main does with a clicked lanparty:// link (open-url or a second launch's argv).
    const parsed = parseDeepLink(inviteLink(code).toLowerCase());
    if (!parsed.ok) throw new Error(parsed.reason);
    bob.server.backend.shell.deliverDeepLink(parsed.link);
    const field = bob.page.getByLabel('Room code');
    await expect.poll(() => field.inputValue()).toBe(code);
    expect(await visible(bob.page, 'heading', 'Join a room')).toBe(true);
    await expect.poll(() => bob.page.locator('#room-code-hint').textContent()).toContain('Room at 127.0.0.1');
    expect(await bob.page.getByText('Filled in from an invite link').isVisible()).toBe(true);
    expect(await bob.page.getByRole('button', { name: 'Join room' }).isEnabled()).toBe(true);
    await session.screenshot(bob.page, 'lobby-join-from-link');
    // Nobody clicked Join: bob is in no room and ada's room still holds only ada.
    expect(bob.server.backend.lobby.view().status).toBe('idle');
    expect(ada.server.backend.lobby.view().state?.players.map((p) => p.name)).toEqual(['ada']);
    await field.fill('');
  });

  it('joins by the code typed loosely; both pages list both players and chat both ways', async () => {
    await bob.focus();
    const field = bob.page.getByLabel('Room code');
    await field.pressSequentially(code.replace('-', ' ').toLowerCase());
    expect(await field.inputValue()).toBe(code);
    await expect.poll(() => bob.page.locator('#room-code-hint').textContent()).toContain('Room at 127.0.0.1');
    await bob.page.getByRole('button', { name: 'Join room' }).click();
    await expect.poll(() => visible(bob.page, 'heading', "ada's room")).toBe(true);
    await expect.poll(() => bob.page.getByTestId('player-row').count()).toBe(2);

    await ada.focus();
    await expect.poll(() => ada.page.getByTestId('player-row').count()).toBe(2);
    expect(await ada.page.getByTestId('player-row').allTextContents()).toEqual([
      expect.stringContaining('ada'),
      expect.stringContaining('bob'),
    ]);
    await ada.page.getByLabel('Chat message').fill('welcome, bob!');
    await ada.page.getByRole('button', { name: 'Send message' }).click();

    await bob.focus();
    await expect.poll(() => bob.page.getByText('welcome, bob!').isVisible()).toBe(true);
    await bob.page.getByLabel('Chat message').fill('hi ada');
    await bob.page.keyboard.press('Enter');
    await expect.poll(() => bob.page.getByText('hi ada').isVisible()).toBe(true);
    await session.screenshot(bob.page, 'lobby-room-guest');

    // In a room Escape does not leave: only the Leave button does.
    await bob.page.keyboard.press('Escape');
    expect(await visible(bob.page, 'heading', "ada's room")).toBe(true);

    await ada.focus();
    await expect.poll(() => ada.page.getByText('hi ada').isVisible()).toBe(true);
    expect(await ada.page.getByText('Waiting for bob to get ready.').first().isVisible()).toBe(true);
    await session.screenshot(ada.page, 'lobby-room-host');
  });

  it('a guest whose native offer was stripped on the way shows a v1 warning on its row, and leaves', async () => {
    // A third player from this process, through a relay on 127.0.0.1 that removes the native offer.
    const stripper = await startOfferStripper(decode(code).port);
    try {
      const cy = await LobbyGuest.join({ host: '127.0.0.1', port: stripper.port, playerName: 'cy', colour: '#3ddc97' });
      await ada.focus();
      const warning = ada.page.getByTestId('player-v1-fallback');
      await expect.poll(() => warning.count()).toBe(1);
      expect(await warning.textContent()).toContain(
        'cy joined over the older gale.net v1 path (no message authentication)',
      );
      await session.screenshot(ada.page, 'lobby-room-v1-fallback');
      // The goodbye goes through the relay too: it stays up until the host has let cy go.
      await cy.leave();
      await expect.poll(() => ada.page.getByTestId('player-row').count()).toBe(2);
    } finally {
      await stripper.close();
    }
    expect(await ada.page.getByTestId('player-v1-fallback').count()).toBe(0);
  });

  it('the action bar never covers the chat input or the players, at the default window and a large one', async () => {
    await ada.focus();
    const page = ada.page;
    const bar = page.locator('.action-bar');
    try {
      for (const size of [
        { width: 1100, height: 690 },
        { width: 1600, height: 1000 },
      ]) {
        await page.setViewportSize(size);
        for (const target of [page.getByLabel('Chat message'), page.getByTestId('player-row').last()]) {
          const coverage = await coverOf(target, bar);
          // The boxes in the message: a failure then says where the target and the bar were.
          expect({ size, ...coverage }, JSON.stringify(coverage)).toMatchObject({
            size,
            aboveBar: true,
            hittable: true,
          });
        }
        await session.screenshot(page, `lobby-room-host-${size.width}x${size.height}`);
      }
      // The header is opaque: nothing scrolled beneath it shows through.
      const header = await page
        .locator('.topbar')
        .evaluate(
          (el) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(
              el,
            ).backgroundColor,
        );
      expect(header).toMatch(/^rgb\(/);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('start waits for everyone to be ready, then both pages show the round in progress', async () => {
    // Everything up to here is ours; the game stage shown next belongs to the game and is checked by its own tests.
    expect(ada.pageErrors).toEqual([]);
    expect(bob.pageErrors).toEqual([]);
    await bob.focus();
    await bob.page.getByRole('button', { name: 'I’m ready' }).click();
    await expect.poll(() => bob.page.getByRole('button', { name: 'Ready!' }).getAttribute('aria-pressed')).toBe('true');

    await ada.focus();
    const start = ada.page.getByRole('button', { name: 'Start round' });
    await expect.poll(() => start.isEnabled()).toBe(true);
    await start.click();
    await expect.poll(() => ada.page.locator('#room-action-status').textContent()).toBe('Round in progress');
    expect(await ada.page.getByTestId('game-slot').isVisible()).toBe(true);
    expect(await ada.page.getByTestId('player-row').count()).toBe(0);
    await session.screenshot(ada.page, 'lobby-round-host');
    try {
      await ada.page.setViewportSize({ width: 1100, height: 690 });
      const bar = ada.page.locator('.action-bar');
      for (const target of ['.scoreboard', '.net-graph', '.game-help']) {
        const coverage = await coverOf(ada.page.locator(target).first(), bar);
        expect({ ...coverage, panel: target }).toMatchObject({ panel: target, aboveBar: true, hittable: true });
      }
      await session.screenshot(ada.page, 'lobby-round-host-1100x690');
    } finally {
      await ada.page.setViewportSize({ width: 1280, height: 800 });
    }

    await bob.focus();
    await expect.poll(() => bob.page.locator('#room-action-status').textContent()).toBe('Round in progress');
    expect(await bob.page.getByTestId('game-slot').isVisible()).toBe(true);
    expect(await bob.page.getByLabel('Chat message').isVisible()).toBe(true);
    await session.screenshot(bob.page, 'lobby-round-guest');
    ada.pageErrors.splice(0);
    bob.pageErrors.splice(0);
  });

  it('closing the room ends it for the guest with a message', async () => {
    await ada.focus();
    await ada.page.getByRole('button', { name: 'Close room' }).click();
    await expect.poll(() => visible(ada.page, 'heading', /Ready to play/)).toBe(true);

    await bob.focus();
    await expect.poll(() => visible(bob.page, 'heading', 'The room was closed')).toBe(true);
    expect(await bob.page.getByText('The host closed the room.').isVisible()).toBe(true);
    await session.screenshot(bob.page, 'lobby-room-ended');
    await bob.page.getByRole('button', { name: 'Back to home' }).click();
    await expect.poll(() => visible(bob.page, 'heading', /Ready to play/)).toBe(true);
  });

  it('a room with a password asks for it, and lets the right one in', async () => {
    await ada.focus();
    await ada.page.getByRole('button', { name: /Host a room/ }).click();
    await ada.page.getByLabel('Room name').fill('Secret base');
    await ada.page.getByLabel(/^Password/).fill('sesame');
    await ada.page.getByRole('button', { name: 'Open room' }).click();
    await expect.poll(() => visible(ada.page, 'heading', /Secret base/)).toBe(true);
    const secretCode = (await ada.page.getByTestId('room-code').textContent()) ?? '';

    await bob.focus();
    await bob.page.getByRole('button', { name: /Join with a code/ }).click();
    await bob.page.getByLabel('Room code').fill(secretCode);
    await bob.page.getByRole('button', { name: 'Join room' }).click();
    await expect.poll(() => bob.page.getByRole('alert').first().textContent()).toContain('This room needs a password.');
    const password = bob.page.getByLabel('Room password');
    await expect
      .poll(() => bob.page.evaluate('document.activeElement && document.activeElement.id'))
      .toBe('join-password-code');
    await session.screenshot(bob.page, 'lobby-join-password');
    await password.fill('wrong');
    await bob.page.keyboard.press('Enter');
    await expect.poll(() => bob.page.getByRole('alert').first().textContent()).toContain('Wrong password');
    await password.fill('sesame');
    await bob.page.getByRole('button', { name: 'Join room' }).click();
    await expect.poll(() => visible(bob.page, 'heading', /Secret base/)).toBe(true);
    await bob.page.getByRole('button', { name: 'Leave room' }).click();
    await expect.poll(() => visible(bob.page, 'heading', /Ready to play/)).toBe(true);
  });

  it('the network check renders the report in plain language', async () => {
    const { page } = bob;
    await bob.focus();
    await page.getByRole('button', { name: /Network check/ }).click();
    await expect.poll(() => visible(page, 'heading', /problem|ready for LAN play/), { timeout: 10_000 }).toBe(true);
    expect(await visible(page, 'heading', 'Ports')).toBe(true);
    expect(await page.getByText('Heard its own search').isVisible()).toBe(true);
    expect(await visible(page, 'heading', 'Tips for Linux')).toBe(process.platform === 'linux');
    await session.screenshot(page, 'lobby-netcheck');
  });

  it('copies the network check report, with the version and log folder, for a support request', async () => {
    const { page } = bob;
    await bob.focus();
    // The browser dev mode has no save dialog: only copying is offered.
    expect(await page.getByRole('button', { name: 'Save report…' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Copy report' }).click();
    await expect.poll(() => page.getByText('Copied to the clipboard.').isVisible()).toBe(true);
    await session.screenshot(page, 'lobby-netcheck-copied');
    const text = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(text).toMatch(/^LAN Party network check\nApp: {7}LAN Party 0\.0\.0-e2e on linux\n/);
    expect(text).toContain('Log files: none (this run logs to the console only)\n');
    expect(text).toMatch(/\nPorts:\n- Finding rooms: UDP \d+ on 127\.0\.0\.1: OK\./);
  });

  it('left no errors in either page after the round', () => {
    expect(ada.pageErrors).toEqual([]);
    expect(bob.pageErrors).toEqual([]);
  });
});
