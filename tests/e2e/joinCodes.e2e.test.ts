import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SETTINGS_FILE_NAME } from '../../main/settings/settingsFile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, decodeShortCode } from '../../shared/roomCode';
import { freeUdpPort, loopbackInterfaces, loopbackNetwork } from '../support/loopbackNetwork';
import { chromiumSkipReason } from './support/chromium';
import { openE2eSession, type E2ePlayer, type E2eSession } from './support/e2eSession';
import { completeFirstRun } from './support/firstRun';

// Two real backends on loopback (rooms on 127.0.0.1, discovery on one shared random port) and two pages of the
// production build, at the default window's page size and a large one: Ada hosts and shows the short code,
// Bob types it with a typo (refused as typed), then right (joins), then a dead code (fails fast, in words).
const skipReason = chromiumSkipReason();
if (skipReason) console.warn(`[e2e] skipping browser tests: ${skipReason}`);

const SIZES = [
  { width: 1100, height: 690, tag: '1100' },
  { width: 1600, height: 1000, tag: '1600' },
] as const;

const visible = (page: Page, role: Parameters<Page['getByRole']>[0], name: string | RegExp) =>
  page.getByRole(role, { name }).first().isVisible();

/** The code with its last two characters swapped (they differ), which the check character must refuse. */
function swapLastTwo(code: string): string {
  for (let at = code.length - 2; at >= 0; at -= 1) {
    if (code[at] !== code[at + 1]) return `${code.slice(0, at)}${code[at + 1]}${code[at]}${code.slice(at + 2)}`;
  }
  throw new Error(`no two different neighbours in ${code}`);
}

describe.skipIf(skipReason !== null)('short and full codes in Chromium', { timeout: 90_000 }, () => {
  let session: E2eSession;
  let ada: E2ePlayer;
  let bob: E2ePlayer;

  beforeAll(async () => {
    const discoveryPort = await freeUdpPort();
    // Each machine also "has" a Tailscale address: listed for the host to pick, never sent to.
    const networkInterfaces = () => ({
      ...loopbackInterfaces(),
      tailscale0: [{ address: '100.101.102.103', netmask: '255.255.255.255', family: 'IPv4', internal: false }],
    });
    session = await openE2eSession(2, {
      osUserNames: ['ada', 'bob'],
      network: loopbackNetwork(discoveryPort, { networkInterfaces }),
    });
    [ada, bob] = session.players as [E2ePlayer, E2ePlayer];
  }, 60_000);

  afterAll(async () => {
    await session?.close();
  });

  it('both players get past the first-run step', async () => {
    await ada.focus();
    await completeFirstRun(ada.page);
    await bob.focus();
    await completeFirstRun(bob.page);
  });

  for (const size of SIZES) {
    it(`at ${size.width}×${size.height}: host shows the short code, a typo is refused, the right code joins, a dead one fails fast`, async () => {
      for (const player of [ada, bob]) await player.page.setViewportSize({ width: size.width, height: size.height });

      // Ada hosts on the address she picks (the only one here: loopback).
      await ada.focus();
      await ada.page.getByRole('button', { name: /Host a room/ }).click();
      await expect.poll(() => ada.page.getByLabel('Address in the code').inputValue()).toBe('127.0.0.1');
      await session.screenshot(ada.page, `codes-host-form-${size.tag}`);
      await ada.page.getByRole('button', { name: 'Open room' }).click();
      const shown = ada.page.getByTestId('room-code');
      await expect.poll(() => shown.textContent()).toMatch(/^[0-9A-Z]{5,7}$/);
      const shortCode = (await shown.textContent()) ?? '';
      expect(decodeShortCode(shortCode).hostPart).toBe(1); // 127.0.0.1 under loopback's /8
      await session.screenshot(ada.page, `codes-host-short-${size.tag}`);
      await ada.page.getByRole('button', { name: 'Code for gale.net games' }).click();
      await expect.poll(() => shown.textContent()).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
      const fullCode = (await shown.textContent()) ?? '';
      expect(decode(fullCode).host).toBe('127.0.0.1');
      expect(await ada.page.getByText('works from any network').isVisible()).toBe(true);
      await session.screenshot(ada.page, `codes-host-full-${size.tag}`);
      await ada.page.getByRole('button', { name: 'Show the short code' }).click();

      // Bob types the short code with two neighbours swapped: refused as typed, in words, Join disabled.
      await bob.focus();
      await bob.page.getByRole('button', { name: /Join with a code/ }).click();
      const field = bob.page.getByLabel('Room code');
      const hint = bob.page.locator('#room-code-hint');
      const join = bob.page.getByRole('button', { name: 'Join room' });
      await field.pressSequentially(swapLastTwo(shortCode).toLowerCase());
      await expect.poll(() => hint.textContent()).toContain('This short code has a typo');
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await join.isDisabled()).toBe(true);
      await session.screenshot(bob.page, `codes-join-typo-${size.tag}`);

      // The right short code joins.
      await field.fill('');
      await field.pressSequentially(shortCode.toLowerCase());
      await expect.poll(() => hint.textContent()).toContain('Short code');
      expect(await field.inputValue()).toBe(shortCode);
      await session.screenshot(bob.page, `codes-join-ready-${size.tag}`);
      await join.click();
      await expect.poll(() => visible(bob.page, 'heading', "ada's room")).toBe(true);
      await session.screenshot(bob.page, `codes-joined-${size.tag}`);

      // Both leave: Ada's room is gone, so its codes are now dead.
      await bob.page.getByRole('button', { name: /Leave/ }).first().click();
      await ada.focus();
      await ada.page
        .getByRole('button', { name: /Close room|Leave/ })
        .first()
        .click();
      const confirm = ada.page.getByRole('button', { name: /Close room/ });
      // A confirm step, when there is one; the room may already be closing (the button detached or disabled),
      // which is fine: the home screen below is what counts.
      if ((await confirm.count()) > 0 && (await confirm.first().isVisible()))
        await confirm
          .first()
          .click({ timeout: 3000 })
          .catch(() => undefined);
      await expect.poll(() => visible(ada.page, 'button', /Host a room/)).toBe(true);
      await bob.focus();
      await expect.poll(() => visible(bob.page, 'button', /Join with a code/)).toBe(true);
      // The closed room's full code: the probe gets no answer, said in ~300 ms, raw detail behind "Details".
      await bob.page.getByRole('button', { name: /Join with a code/ }).click();
      await field.fill(fullCode);
      await expect.poll(() => hint.textContent()).toContain('Room at 127.0.0.1');
      const started = Date.now();
      await join.click();
      const alert = bob.page.getByRole('alert').first();
      await expect.poll(() => alert.textContent()).toContain('No room answered at 127.0.0.1');
      const elapsed = Date.now() - started;
      console.log(`[e2e] dead code at ${size.width}×${size.height}: refused on screen after ${elapsed} ms`);
      expect(elapsed).toBeLessThan(5000); // generous: the probe alone gives up after 300 ms
      expect(await alert.textContent()).not.toMatch(/E[A-Z]{5,}/);
      expect(await visible(bob.page, 'button', 'Try anyway')).toBe(true);
      await bob.page.getByRole('button', { name: 'Details' }).click();
      await expect
        .poll(() => bob.page.getByTestId('join-failure-detail').textContent())
        .toContain('no answer to 3 queries');
      await session.screenshot(bob.page, `codes-join-dead-${size.tag}`);
      // Editing the code clears the stale error.
      await field.fill(fullCode.slice(0, -1));
      await expect.poll(() => bob.page.getByRole('alert').count()).toBe(0);
      await bob.page.getByRole('button', { name: 'Back to home' }).click();
      await expect.poll(() => visible(bob.page, 'button', /Join with a code/)).toBe(true);
    });
  }

  it('a VPN address is listed by interface, labelled, remembered, and gets the full code with the reason', async () => {
    await ada.page.setViewportSize({ width: 1100, height: 690 });
    await ada.focus();
    await ada.page.getByRole('button', { name: /Host a room/ }).click();
    const picker = ada.page.getByLabel('Address in the code');
    await expect.poll(() => picker.inputValue()).toBe('127.0.0.1');
    expect(await picker.locator('option').allTextContents()).toEqual([
      'lo · 127.0.0.1',
      'tailscale0 · 100.101.102.103 · VPN',
    ]);
    await picker.selectOption('100.101.102.103');
    await expect.poll(() => ada.page.locator('#room-address-hint').textContent()).toContain('A VPN address');
    await session.screenshot(ada.page, 'codes-host-vpn-choice');
    await ada.page.getByRole('button', { name: 'Open room' }).click();
    const shown = ada.page.getByTestId('room-code');
    await expect.poll(() => shown.textContent()).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(decode((await shown.textContent()) ?? '').host).toBe('100.101.102.103');
    expect(await ada.page.getByRole('button', { name: 'Code for gale.net games' }).count()).toBe(0);
    expect(await ada.page.getByText('they need the full code').isVisible()).toBe(true);
    await session.screenshot(ada.page, 'codes-host-vpn-room');
    // The choice is remembered for the next room.
    const settingsFile = join(ada.userDataDir, SETTINGS_FILE_NAME);
    await expect
      .poll(async () => (JSON.parse(await readFile(settingsFile, 'utf8')) as { hostInterface?: string }).hostInterface)
      .toBe('tailscale0');
    await ada.page.getByRole('button', { name: 'Close room' }).click();
    await ada.page.getByRole('button', { name: /Host a room/ }).click();
    await expect.poll(() => ada.page.getByLabel('Address in the code').inputValue()).toBe('100.101.102.103');
  });
});
