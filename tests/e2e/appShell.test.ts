import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_CONTENT_SECURITY_POLICY } from '../../main/shell/window/contentSecurityPolicy';
import { silentLogger, type Logger } from '../../main/base/logger';
import { createSettingsStore } from '../../main/settings/settingsStore';
import { chromiumSkipReason } from './support/chromium';
import { openE2eSession, type E2ePlayer, type E2eSession } from './support/e2eSession';
import { completeFirstRun } from './support/firstRun';

// The production renderer in Chromium against the real backend over the WebSocket binding.
const skipReason = chromiumSkipReason();
if (skipReason) console.warn(`[e2e] skipping browser tests: ${skipReason}`);

describe.skipIf(skipReason !== null)('app shell in Chromium (production build)', { timeout: 60_000 }, () => {
  let session: E2eSession;
  let player: E2ePlayer;
  let other: E2ePlayer;
  // What the backends log at error level: renderer errors arrive here.
  const errorLines: string[] = [];
  const logger: Logger = { ...silentLogger, error: (message) => void errorLines.push(message) };

  beforeAll(async () => {
    // Two backends: the first is edited by the profile tests, the second is cut off by the banner test.
    session = await openE2eSession(2, { osUserNames: ['ada', 'grace'], logger });
    [player, other] = session.players as [E2ePlayer, E2ePlayer];
  }, 60_000);

  afterAll(async () => {
    await session?.close();
  });

  it('loads and shows the default player name from the OS user name', async () => {
    const { page } = player;
    await player.focus();
    // First run: the name field is prefilled from the OS user name.
    await expect.poll(() => page.getByLabel('Player name').inputValue()).toBe('ada');
    await completeFirstRun(page);
    expect((await player.server.backend.settings.get()).onboarded).toBe(true);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('ada');
    expect(await page.getByText('Browser dev mode').isVisible()).toBe(true);
    await session.screenshot(page, 'app-shell-default');
  });

  it('rejects an empty name in the form without calling the backend', async () => {
    const { page } = player;
    await player.focus();
    // The profile opens from the header chip in a dialog.
    await page.getByRole('button', { name: 'Edit profile: ada' }).click();
    const name = page.getByLabel('Player name');
    await name.fill('   ');
    await page.getByRole('radio', { name: 'Lime' }).check();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(() => page.getByText('Name cannot be empty').isVisible()).toBe(true);
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await session.screenshot(page, 'app-shell-invalid-name');
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(await name.inputValue()).toBe('ada');
    expect((await player.server.backend.settings.get()).playerName).toBe('ada');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(false);
  });

  it('saves name and colour, and they persist across a reload and on disk', async () => {
    const { page } = player;
    await player.focus();
    // Keyboard path: the header chip moves focus to the name field.
    await page.getByRole('button', { name: 'Edit profile: ada' }).click();
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.id')).toBe('player-name');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('  Captain Nova  ');
    // 'ada' defaults to Mint, so Violet is a real change.
    expect(await page.getByRole('radio', { name: 'Mint' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'Violet' }).check();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(() => page.getByText('Profile saved').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Edit profile: Captain Nova' }).isVisible()).toBe(true);
    await session.screenshot(page, 'app-shell-profile-saved');

    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'Edit profile: Captain Nova' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Edit profile: Captain Nova' }).click();
    expect(await page.getByLabel('Player name').inputValue()).toBe('Captain Nova');
    expect(await page.getByRole('radio', { name: 'Violet' }).isChecked()).toBe(true);
    const chipColor = await page.evaluate(
      `getComputedStyle(document.querySelector('[data-testid=player-chip] .avatar')).getPropertyValue('--player')`,
    );
    expect(chipColor).toBe('#a77dff');
    await session.screenshot(page, 'app-shell-after-reload');

    const expected = {
      playerName: 'Captain Nova',
      playerColor: '#a77dff',
      onboarded: true,
      notifications: true,
      theme: 'system',
    };
    expect(await player.server.backend.settings.get()).toEqual(expected);
    // A fresh store on the same folder reads what was written to disk.
    const fromDisk = createSettingsStore({ dir: player.userDataDir, osUserName: 'ada', logger: silentLogger });
    expect(await fromDisk.get()).toEqual(expected);
    expect(player.pageErrors).toEqual([]);
  });

  it('follows the OS colour scheme, and the theme setting overrides it either way', async () => {
    const { page } = player;
    await player.focus();
    const background = () => page.evaluate('getComputedStyle(document.documentElement).backgroundColor');
    const dataTheme = () => page.evaluate('document.documentElement.dataset.theme ?? null');
    const DARK = 'rgb(11, 13, 23)';
    const LIGHT = 'rgb(242, 243, 249)';
    // Still open from the last test? The theme sits in the profile dialog either way.
    if (!(await page.getByRole('dialog').isVisible())) {
      await page.getByRole('button', { name: /^Edit profile:/ }).click();
    }
    const theme = page.getByRole('group', { name: 'Theme' });
    expect(await theme.getByRole('radio', { name: 'Follow system' }).isChecked()).toBe(true);
    // 'Follow system' resolves the OS's scheme onto <html> and follows it as it changes.
    await expect.poll(dataTheme).toBe('dark');
    await expect.poll(background).toBe(DARK);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(dataTheme).toBe('light');
    await expect.poll(background).toBe(LIGHT);

    // Dark wins over a light OS; saved on the spot, and on disk.
    await theme.getByRole('radio', { name: 'Dark' }).check();
    await expect.poll(dataTheme).toBe('dark');
    await expect.poll(background).toBe(DARK);
    await expect.poll(async () => (await player.server.backend.settings.get()).theme).toBe('dark');

    // Light wins over a dark OS, and survives a reload.
    await page.emulateMedia({ colorScheme: 'dark' });
    await theme.getByRole('radio', { name: 'Light' }).check();
    await expect.poll(dataTheme).toBe('light');
    await expect.poll(background).toBe(LIGHT);
    await page.reload();
    await expect.poll(dataTheme).toBe('light');
    await expect.poll(background).toBe(LIGHT);
    await page.getByRole('button', { name: /^Edit profile:/ }).click();
    expect(await page.getByRole('radio', { name: 'Light' }).isChecked()).toBe(true);
    await session.screenshot(page, 'app-shell-theme-setting');

    await page.getByRole('radio', { name: 'Follow system' }).check();
    // Back to the OS, which is dark here.
    await expect.poll(dataTheme).toBe('dark');
    await expect.poll(background).toBe(DARK);
    await expect.poll(async () => (await player.server.backend.settings.get()).theme).toBe('system');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(false);
    expect(player.pageErrors).toEqual([]);
  });

  it('serves the CSP header and the CSP blocks an inline script', async () => {
    const { page } = player;
    await player.focus();
    const response = await page.request.get(player.server.origin + '/');
    expect(response.headers()['content-security-policy']).toBe(DEV_CONTENT_SECURITY_POLICY);
    const outcome = await page.evaluate(`new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ directive: null, ran: window.__inlineRan === true }), 3000);
      document.addEventListener('securitypolicyviolation', (event) => {
        clearTimeout(timer);
        resolve({ directive: event.effectiveDirective, ran: window.__inlineRan === true });
      }, { once: true });
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.appendChild(script);
    })`);
    expect(outcome).toEqual({ directive: 'script-src-elem', ran: false });
  });

  it('the WebSocket binding refuses a wrong secret and accepts the right one', async () => {
    const { page } = player;
    await player.focus();
    const { port, secret } = player.server.binding.location;
    const tryConnect = (s: string): Promise<unknown> =>
      page.evaluate(`new Promise((resolve) => {
        const ws = new WebSocket('ws://127.0.0.1:${port}/?secret=${encodeURIComponent(s)}');
        ws.onopen = () => { ws.close(); resolve('open'); };
        ws.onclose = () => resolve('refused');
      })`);
    const before = player.server.binding.stats().rejectedConnections;
    expect(await tryConnect('not-the-secret-0123456789')).toBe('refused');
    expect(await tryConnect(secret)).toBe('open');
    expect(player.server.binding.stats().rejectedConnections).toBe(before + 1);
    const onDisk = JSON.parse(await readFile(player.server.backend.settings.filePath, 'utf8')) as unknown;
    expect(onDisk).toMatchObject({ version: 1, playerName: 'Captain Nova' });
  });

  it('shows an error screen with a retry when the URL carries a wrong secret', async () => {
    const page = await session.browser.context.newPage();
    try {
      await page.goto(
        `${player.server.origin}/#ws=${player.server.binding.location.port}&secret=wrong-secret-0123456789`,
      );
      const alert = page.getByRole('alert');
      await expect.poll(() => alert.textContent()).toContain('Can’t reach the LAN Party backend');
      await session.screenshot(page, 'app-shell-error');
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => alert.textContent()).toContain('Could not connect to the backend');
    } finally {
      await page.close();
    }
  });

  it('shows the shell’s update and reload banners; a restart the backend cannot do says why', async () => {
    const { page } = player;
    await player.focus();
    const { shell } = player.server.backend;
    const errorsBefore = player.pageErrors.length;
    shell.setUpdateStatus({ state: 'ready', version: '0.2.0' });
    shell.notice({ kind: 'renderer-crashed' });
    const update = page.getByTestId('update-banner');
    await expect.poll(() => update.textContent()).toContain('LAN Party 0.2.0 is downloaded');
    expect(await page.getByTestId('shell-notice').textContent()).toContain('stopped unexpectedly and was reloaded');
    await session.screenshot(page, 'app-shell-banners');
    // The dev server has no updater: the request fails cleanly and the banner says so.
    await page.getByRole('button', { name: 'Restart to update' }).click();
    await expect.poll(() => update.textContent()).toContain('No update is ready to install yet.');
    await page.getByTestId('shell-notice').getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => page.getByTestId('shell-notice').count()).toBe(0);
    shell.setUpdateStatus({ state: 'idle' });
    await expect.poll(() => update.count()).toBe(0);
    expect(player.pageErrors.slice(errorsBefore)).toEqual([]);
  });

  it('turns desktop notifications off and on, saved at once', async () => {
    const { page } = player;
    await player.focus();
    await page.getByRole('button', { name: /^Edit profile:/ }).click();
    const toggle = page.getByLabel('Desktop notifications');
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await expect.poll(async () => (await player.server.backend.settings.get()).notifications).toBe(false);
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await expect.poll(async () => (await player.server.backend.settings.get()).notifications).toBe(true);
    await page.getByRole('button', { name: 'Close profile' }).click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(false);
  });

  it("sends the page's uncaught errors and unhandled rejections to main's log", async () => {
    const { page } = player;
    await player.focus();
    await page.evaluate(`setTimeout(() => { throw new Error('boom from the e2e test'); })`);
    await page.evaluate(`Promise.reject(new Error('rejected in the e2e test')); undefined`);
    await expect
      .poll(() => errorLines.filter((line) => line.startsWith('renderer: ')))
      .toEqual([
        'renderer: uncaught error: Error: boom from the e2e test',
        'renderer: unhandled promise rejection: Error: rejected in the e2e test',
      ]);
    // The page did throw (Playwright saw it: its pageerror event can come after main has logged it), and main
    // logged each error once.
    await expect.poll(() => player.pageErrors).toContain('boom from the e2e test');
  });

  it('shows a banner when the backend connection drops', async () => {
    const { page } = other;
    await other.focus();
    await completeFirstRun(page);
    await other.server.binding.close();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Lost the connection to the backend');
    expect(await page.getByText('Backend disconnected').isVisible()).toBe(true);
    await session.screenshot(page, 'app-shell-connection-lost');
  });
});
