import type { ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineMatching } from '../support/lineMatching';
import { startLabRendezvous } from '../support/labRendezvous';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumSkipReason } from './support/chromium';
import { completeFirstRun } from './support/firstRun';
import { assertRendererBuilt } from './support/rendererBuild';
import { saveElementScreenshot, saveScreenshot } from './support/screenshots';
import { scriptArgs } from '../support/scriptArgs';

// Internet rooms in Chromium across the NAT lab (tests/support/natLab.ts): each player is a dev:web backend in
// its own namespace behind a home router, with its own headless Chromium started inside the same namespace
// (the page talks to the backend on that namespace's loopback). The rendezvous (the host CLI's --rendezvous
// mode) and coturn sit on the lab's public side. Settings, hosting, joining, the path badge and chat go through
// the UI; so do the failures: a mistyped NET- code, a closed room's code, the rendezvous unreachable.
const skipReason = natLabUnavailableReason() ?? chromiumSkipReason() ?? undefined;
if (skipReason) console.warn(`[e2e] skipping internet rooms in Chromium: ${skipReason}`);

const ROOT = resolve(__dirname, '../..');
const RDV_PORT = 8787;
// Each backend is alone in its namespace, so one fixed discovery port is nobody else's.
const DISCOVERY_PORT = 41990;
const SIZES = [
  { width: 1100, height: 690, tag: '1100' },
  { width: 1600, height: 1000, tag: '1600' },
] as const;

let lab: NatLab;
let rendezvousUrl = '';
const children: ChildProcess[] = [];

/** One player: a dev:web backend and a Chromium, both inside the player's namespace. */
interface LabPlayer {
  readonly page: Page;
  readonly pageErrors: string[];
  close(): Promise<void>;
}

async function startPlayer(player: string, name: string): Promise<LabPlayer> {
  const address = lab.addresses[player]!;
  const dir = await mkdtemp(join(tmpdir(), `lan-party-net-e2e-${player}-`));
  const backend = lab.spawnIn(player, process.execPath, [
    ...scriptArgs(join(ROOT, 'scripts/devWeb.ts')),
    '--port',
    '0',
    '--user-data',
    join(dir, 'user'),
    // Explicit network options: this namespace's own address, LAN searches only to its loopback.
    '--loopback',
    '--bind',
    address,
    '--advertise',
    address,
    '--discovery-port',
    String(DISCOVERY_PORT),
    '--game-port',
    '0',
    '--ice-host',
    address,
  ]);
  children.push(backend);
  let context: BrowserContext | undefined;
  const close = async () => {
    await context?.close().catch(() => undefined);
    if (backend.exitCode === null) {
      const exited = new Promise((done) => backend.once('exit', done));
      backend.kill('SIGTERM');
      const timer = setTimeout(() => backend.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const [, url] = (await lineMatching(backend, /^Open: (\S+)/, 30_000)) as [string, string];
    // Playwright drives Chromium over a pipe, which `ip netns exec` hands on: the browser lives in the namespace.
    const launcher = join(dir, 'chromium-in-namespace.sh');
    await writeFile(launcher, `#!/bin/sh\nexec ip netns exec ${lab.namespaces[player]} ${CHROMIUM_PATH} "$@"\n`);
    await chmod(launcher, 0o755);
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: launcher,
      headless: true,
      args: [...CHROMIUM_ARGS],
      viewport: { width: SIZES[0].width, height: SIZES[0].height },
      colorScheme: 'dark',
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(url);
    await completeFirstRun(page, name);
    return { page, pageErrors, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Settings through the UI: profile chip → profile → Internet rooms; waits for the save to be confirmed. */
async function setRendezvous(page: Page, url: string): Promise<void> {
  await page.getByTestId('player-chip').click();
  const field = page.getByLabel('Rendezvous service');
  await field.fill(url);
  expect(await page.getByLabel('Relay (TURN) when no direct path works').inputValue()).toBe('shared-secret');
  await page.getByRole('button', { name: 'Save internet room settings' }).click();
  await expect.poll(() => page.locator('#internet-rooms-state').textContent()).toMatch(/^On: /);
  await expect.poll(() => page.getByText('✓ Saved').isVisible()).toBe(true);
  // The profile is a dialog over the screens: close it, as a player would, before going on.
  await page.getByRole('button', { name: 'Close profile' }).click();
  await expect.poll(() => page.locator('dialog.profile-dialog[open]').count()).toBe(0);
}

/** Opens an internet room through the host form; returns its NET- code. */
async function hostInternetRoom(page: Page, shots: string | null): Promise<string> {
  await page.getByRole('button', { name: /Host a room/ }).click();
  const internet = page.getByRole('radio', { name: 'Friends over the internet' });
  await expect.poll(() => internet.isEnabled()).toBe(true);
  await internet.check();
  await expect.poll(() => page.locator('#reach-hint').textContent()).toContain('NET- code');
  if (shots) await saveScreenshot(page, `net-host-reach-${shots}`);
  await page.getByRole('button', { name: 'Open room' }).click();
  const code = page.getByTestId('internet-code');
  await expect.poll(() => code.textContent(), { timeout: 20_000 }).toMatch(/^NET-(?:[0-9A-Z]{4}-){3}[0-9A-Z]{4}$/);
  await expect
    .poll(() => page.getByTestId('internet-code-block').textContent())
    .toContain('Friends anywhere join with this code');
  return (await code.textContent())!;
}

/** Whether the page fits its window's width (nothing pushed off to the right). */
const fitsWidth = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

async function screenshotCode(page: Page, tag: string): Promise<void> {
  // The long NET- code and its buttons wrap rather than widening the room past the window.
  expect(await fitsWidth(page)).toBe(true);
  await saveScreenshot(page, `net-host-code-${tag}`);
  await saveElementScreenshot(page, page.getByTestId('internet-code-block'), `net-host-code-block-${tag}`);
}

async function openJoin(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Join with a code/ }).click();
  await expect.poll(() => page.getByLabel('Room code').isVisible()).toBe(true);
}

/** Types `code` and presses Join; takes a screenshot of the progress card if it is caught on screen. */
async function joinWith(page: Page, code: string, progressShot: string | null): Promise<void> {
  await page.getByLabel('Room code').fill(code);
  await expect.poll(() => page.locator('#room-code-hint').textContent()).toContain('Internet room: the host is found');
  await page.getByRole('button', { name: 'Join room' }).click();
  if (progressShot === null) return;
  // Best effort: the steps may pass too fast to catch, which is no failure.
  const progress = page.getByTestId('join-progress');
  const caught = await progress
    .waitFor({ state: 'visible', timeout: 5_000 })
    .then(() => true)
    .catch(() => false);
  if (caught) {
    const step = await progress.textContent();
    expect(step).toMatch(/Finding the host…|Trying a direct path…|Using the relay…|Connecting to/);
    await saveScreenshot(page, progressShot);
  } else console.log('[e2e] join progress passed too quickly for a screenshot');
}

async function closeRoom(page: Page, isHost: boolean): Promise<void> {
  await page.getByRole('button', { name: isHost ? 'Close room' : 'Leave room' }).click();
  const confirm = page.getByRole('dialog').getByRole('button', { name: /Close room/ });
  if (isHost && (await confirm.count()) > 0 && (await confirm.first().isVisible())) await confirm.first().click();
  await expect.poll(() => page.getByRole('button', { name: /Host a room/ }).isVisible()).toBe(true);
}

/** The host's view of the guest's path badge, once the guest is listed. */
async function guestPathAtHost(host: Page): Promise<string> {
  await expect.poll(() => host.getByTestId('player-row').count(), { timeout: 20_000 }).toBe(2);
  return (await host.getByTestId('player-row').nth(1).getByTestId('player-path').textContent()) ?? '';
}

async function chatBothWays(host: Page, guest: Page): Promise<void> {
  await guest.getByLabel('Chat message').fill('hello from behind my router');
  await guest.getByRole('button', { name: 'Send message' }).click();
  await expect.poll(() => host.getByText('hello from behind my router').isVisible()).toBe(true);
  await host.getByLabel('Chat message').fill('welcome over the internet');
  await host.keyboard.press('Enter');
  await expect.poll(() => guest.getByText('welcome over the internet').isVisible()).toBe(true);
}

beforeAll(async () => {
  if (skipReason) return;
  assertRendererBuilt();
  lab = await createNatLab({
    routers: { eim1: 'endpoint-independent', eim2: 'endpoint-independent', sym1: 'symmetric', sym2: 'symmetric' },
    players: {
      e1: { router: 'eim1' },
      e2: { router: 'eim2' },
      s1: { router: 'sym1' },
      s2: { router: 'sym2' },
      rdv: 'public',
    },
  });
  const rendezvous = await startLabRendezvous(lab, 'rdv', RDV_PORT);
  children.push(rendezvous.child);
  rendezvousUrl = rendezvous.url;
}, 60_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await lab?.destroy();
});

describe.skipIf(skipReason !== undefined)('internet rooms in Chromium across NATs', { timeout: 120_000 }, () => {
  it('both behind endpoint-independent NATs: hosted, joined and chatted through the UI over a direct path; failures in words', async () => {
    const [ada, bob] = await Promise.all([startPlayer('e1', 'ada'), startPlayer('e2', 'bob')]);
    try {
      // Before a rendezvous is set, the internet choice is off and says where to turn it on.
      await ada.page.getByRole('button', { name: /Host a room/ }).click();
      expect(await ada.page.getByRole('radio', { name: 'Friends over the internet' }).isDisabled()).toBe(true);
      expect(await ada.page.locator('#reach-hint').textContent()).toContain('Internet rooms are off');
      await saveScreenshot(ada.page, 'net-host-reach-off-1100');
      await ada.page.getByRole('button', { name: 'Cancel' }).click();

      await Promise.all([setRendezvous(ada.page, rendezvousUrl), setRendezvous(bob.page, rendezvousUrl)]);
      await saveScreenshot(bob.page, 'net-settings-on-1100');

      const code = await hostInternetRoom(ada.page, '1100');
      await screenshotCode(ada.page, '1100');
      await ada.page.setViewportSize({ width: SIZES[1].width, height: SIZES[1].height });
      await screenshotCode(ada.page, '1600');
      await ada.page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });

      // A mistyped code (one character changed) is refused as typed: Join stays disabled.
      await openJoin(bob.page);
      const last = code.at(-1)!;
      const typo = code.slice(0, -1) + (last === '0' ? '1' : '0');
      await bob.page.getByLabel('Room code').fill(typo);
      await expect.poll(() => bob.page.locator('#room-code-hint').textContent()).toContain('A character is mistyped');
      expect(await bob.page.getByLabel('Room code').getAttribute('aria-invalid')).toBe('true');
      expect(await bob.page.getByRole('button', { name: 'Join room' }).isDisabled()).toBe(true);
      await saveScreenshot(bob.page, 'net-join-typo-1100');

      // The right code joins; the host sees the guest came directly.
      await joinWith(bob.page, code.toLowerCase(), 'net-join-progress-1100');
      await expect.poll(() => bob.page.getByRole('heading', { name: "ada's room" }).isVisible()).toBe(true);
      expect(await guestPathAtHost(ada.page)).toBe('Direct');
      expect(await fitsWidth(ada.page)).toBe(true);
      await chatBothWays(ada.page, bob.page);
      await saveScreenshot(ada.page, 'net-lobby-host-direct-1100');
      await saveScreenshot(bob.page, 'net-lobby-guest-direct-1100');
      await ada.page.setViewportSize({ width: SIZES[1].width, height: SIZES[1].height });
      await saveScreenshot(ada.page, 'net-lobby-host-direct-1600');
      await ada.page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });

      // Bob leaves, Ada closes the room: its code is dead, and the join says so.
      await closeRoom(bob.page, false);
      await closeRoom(ada.page, true);
      await openJoin(bob.page);
      await joinWith(bob.page, code, null);
      const alert = bob.page.getByRole('alert').first();
      await expect
        .poll(() => alert.textContent(), { timeout: 20_000 })
        .toMatch(/does not exist any more|expired|closed/i);
      // An internet code has no address to try without the rendezvous: no "Try anyway".
      expect(await bob.page.getByRole('button', { name: 'Try anyway' }).count()).toBe(0);
      await saveScreenshot(bob.page, 'net-join-closed-1100');

      // The rendezvous unreachable (settings pointing at a dead port): said in words.
      await bob.page.getByRole('button', { name: 'Back to home' }).click();
      await setRendezvous(bob.page, `ws://${lab.addresses.rdv}:${RDV_PORT + 1}/rendezvous/v1`);
      await openJoin(bob.page);
      await joinWith(bob.page, code, null);
      await expect.poll(() => alert.textContent(), { timeout: 20_000 }).toMatch(/cannot (be )?reach/i);
      await saveScreenshot(bob.page, 'net-join-rendezvous-down-1100');
      expect(ada.pageErrors).toEqual([]);
      expect(bob.pageErrors).toEqual([]);
    } finally {
      await Promise.all([ada.close(), bob.close()]);
    }
  });

  it('both behind symmetric NATs: the host’s list shows the guest as Relayed', async () => {
    const [cleo, dan] = await Promise.all([startPlayer('s1', 'cleo'), startPlayer('s2', 'dan')]);
    try {
      await Promise.all([setRendezvous(cleo.page, rendezvousUrl), setRendezvous(dan.page, rendezvousUrl)]);
      const code = await hostInternetRoom(cleo.page, null);
      await openJoin(dan.page);
      await joinWith(dan.page, code, 'net-join-progress-relayed-1100');
      await expect
        .poll(() => dan.page.getByRole('heading', { name: "cleo's room" }).isVisible(), { timeout: 40_000 })
        .toBe(true);
      expect(await guestPathAtHost(cleo.page)).toBe('Relayed');
      await chatBothWays(cleo.page, dan.page);
      await saveScreenshot(cleo.page, 'net-lobby-host-relayed-1100');
      await cleo.page.setViewportSize({ width: SIZES[1].width, height: SIZES[1].height });
      await saveScreenshot(cleo.page, 'net-lobby-host-relayed-1600');
      expect(cleo.pageErrors).toEqual([]);
      expect(dan.pageErrors).toEqual([]);
    } finally {
      await Promise.all([cleo.close(), dan.close()]);
    }
  });
});
