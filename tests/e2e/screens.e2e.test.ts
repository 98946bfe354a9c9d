import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscoveryPortRegistry, startLanDiscovery, type LanDiscoveryHandle } from '../../main/net/discovery';
import { silentLogger } from '../../main/base/logger';
import { freeUdpPort, loopbackInterfaces, loopbackNetwork } from '../support/loopbackNetwork';
import { chromiumSkipReason } from './support/chromium';
import { openE2eSession, type E2ePlayer, type E2eSession } from './support/e2eSession';
import { completeFirstRun } from './support/firstRun';
import { SCHEMES, SCREENSHOT_DIR } from './support/screenshots';

// Every screen and state, at the Electron window's default page size and at a large one: axe finds no serious or
// critical violation (the rest are printed), focus lands on the new screen's heading, and each state leaves a
// screenshot in test-output/screenshots/screens-<state>-<w>x<h>.png (and -light) for a human to look at.
// Loopback only: two backends sharing a random discovery port searched via 127.255.255.255, fake rooms answering
// on that port from this process, and one "over the VPN" on 127.0.0.2 reached only by its unicast address.
const skipReason = chromiumSkipReason();
if (skipReason) console.warn(`[e2e] skipping browser tests: ${skipReason}`);

const SIZES = [
  { width: 1100, height: 690 },
  { width: 1600, height: 1000 },
] as const;

const BAD_IMPACTS = new Set(['serious', 'critical']);

/** Axe over the page as it is; returns the serious and critical violations, printing the others. */
async function axe(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad: string[] = [];
  for (const violation of results.violations) {
    const targets = violation.nodes.map((node) => node.target.join(' ')).slice(0, 4);
    const why = violation.nodes[0]?.failureSummary?.replace(/\s+/g, ' ') ?? '';
    const line = `${where}: ${violation.impact} ${violation.id} (${violation.help}) at ${targets.join(' | ')}: ${why}`;
    if (BAD_IMPACTS.has(violation.impact ?? '')) bad.push(line);
    else console.log(`[axe] ${line}`);
  }
  return bad;
}

/** Finishes every running CSS transition (colours fade when the scheme flips), so what is shot is the end state. */
async function finishTransitions(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Running = { constructor: { name: string }; finish(): void };
    const doc = (globalThis as unknown as { document: { getAnimations(): Running[] } }).document;
    for (const animation of doc.getAnimations()) if (animation.constructor.name === 'CSSTransition') animation.finish();
  });
}

/** Switches the OS colour scheme and waits for the app to follow it (it sets data-theme), transitions finished. */
async function useScheme(page: Page, scheme: 'dark' | 'light'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await expect.poll(() => page.evaluate('document.documentElement.dataset.theme ?? null')).toBe(scheme);
  await finishTransitions(page);
}

/** Full-page screenshots in the dark and light schemes (<name>.png, <name>-light.png), each once it has settled. */
async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.evaluate('window.scrollTo(0, 0)');
  try {
    for (const { scheme, suffix } of SCHEMES) {
      await useScheme(page, scheme);
      await page.screenshot({
        path: join(SCREENSHOT_DIR, `${name}${suffix}.png`),
        fullPage: true,
        animations: 'disabled',
      });
    }
  } finally {
    await useScheme(page, 'dark');
  }
}

/**
 * Audits and photographs one state at both sizes (dark, and light at the default size, since contrast differs),
 * then asserts there was nothing serious.
 */
async function walk(page: Page, state: string): Promise<void> {
  const bad: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await finishTransitions(page);
    bad.push(...(await axe(page, `${state} ${size.width}x${size.height}`)));
    if (size === SIZES[0]) {
      await useScheme(page, 'light');
      bad.push(...(await axe(page, `${state} ${size.width}x${size.height} light`)));
      await useScheme(page, 'dark');
    }
    await screenshot(page, `screens-${state}-${size.width}x${size.height}`);
  }
  await page.setViewportSize(SIZES[0]);
  expect(bad).toEqual([]);
}

/** The focused element's tag and text, to check focus moved to a heading. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = (
      globalThis as unknown as { document: { activeElement: { tagName: string; textContent: string | null } | null } }
    ).document.activeElement;
    return active ? `${active.tagName}:${(active.textContent ?? '').trim()}` : 'none';
  });

/** At the default window the page's content fits the window: nothing to scroll to. */
async function expectNoScrollAtDefaultWindow(page: Page): Promise<void> {
  await page.setViewportSize(SIZES[0]);
  await finishTransitions(page);
  const fold = await page.evaluate(() => {
    const root = globalThis as unknown as {
      innerHeight: number;
      document: { documentElement: { scrollHeight: number } };
    };
    return { content: root.document.documentElement.scrollHeight, window: root.innerHeight };
  });
  expect(fold.content).toBeLessThanOrEqual(fold.window);
}

describe.skipIf(skipReason !== null)('every screen: axe, heading focus, screenshots', { timeout: 240_000 }, () => {
  let session: E2eSession;
  let ada: E2ePlayer;
  let bob: E2ePlayer;
  let discoveryPort = 0;
  let code = '';
  const responders: LanDiscoveryHandle[] = [];
  // Bob's page goes through a WebSocket route that can hold back `lan.start`, to catch the list's loading state.
  let holdLanStart = false;
  const heldLanStart: Array<() => void> = [];

  beforeAll(async () => {
    discoveryPort = await freeUdpPort();
    session = await openE2eSession(2, { osUserNames: ['ada', 'bob'], network: loopbackNetwork(discoveryPort) });
    [ada, bob] = session.players as [E2ePlayer, E2ePlayer];
    await bob.page.routeWebSocket(/.*/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        const forward = () => server.send(message);
        if (holdLanStart && typeof message === 'string' && message.includes('"lan.start"')) heldLanStart.push(forward);
        else forward();
      });
      server.onMessage((message) => ws.send(message));
    });
    await bob.page.reload();
    for (const page of [ada.page, bob.page]) await page.setViewportSize(SIZES[0]);
  }, 60_000);

  afterAll(async () => {
    for (const responder of responders) await responder.close();
    await session?.close();
  });

  it('first run', async () => {
    await ada.focus();
    await expect.poll(() => ada.page.getByRole('heading', { name: 'Who’s playing tonight?' }).isVisible()).toBe(true);
    await expectNoScrollAtDefaultWindow(ada.page); // the whole card, its Let's play button included
    await walk(ada.page, 'first-run');
    await completeFirstRun(ada.page);
    await bob.focus();
    await completeFirstRun(bob.page);
  });

  it('home: Host is the one big first step, and the heading has focus', async () => {
    const { page } = ada;
    await ada.focus();
    await expect.poll(() => focused(page)).toBe('H1:Ready to play, ada?');
    const host = await page.getByRole('button', { name: /Host a room/ }).boundingBox();
    const join = await page.getByRole('button', { name: /Join with a code/ }).boundingBox();
    const browse = await page.getByRole('button', { name: /Browse the LAN/ }).boundingBox();
    expect(host && join && browse).toBeTruthy();
    // Host is larger than either way to join, which sit beside it.
    expect(host!.width * host!.height).toBeGreaterThan(1.5 * join!.width * join!.height);
    expect(join!.x).toBeGreaterThan(host!.x + host!.width - 1);
    expect(await page.getByLabel('Player name').count()).toBe(0); // the profile form is not on home any more
    // At the default window the whole home shows, the steps and the status bar included: nothing below the fold.
    await expectNoScrollAtDefaultWindow(page);
    await walk(page, 'home');
  });

  it('profile: the chip opens it in a dialog with focus on the name; Escape closes it and returns focus', async () => {
    const { page } = ada;
    await ada.focus();
    const chip = page.getByRole('button', { name: 'Edit profile: ada' });
    await chip.click();
    const dialog = page.getByRole('dialog', { name: 'Player profile' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.id')).toBe('player-name');
    await walk(page, 'profile');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => page.evaluate('document.activeElement?.dataset.testid ?? null')).toBe('player-chip');
    expect(await page.getByRole('heading', { name: /Ready to play/ }).isVisible()).toBe(true);
  });

  it('LAN list: loading, then empty with neutral bullets and the ports in use', async () => {
    const { page } = bob;
    await bob.focus();
    holdLanStart = true;
    await page.getByRole('button', { name: /Browse the LAN/ }).click();
    await expect.poll(() => page.getByText('Starting the search…').isVisible()).toBe(true);
    await expect.poll(() => focused(page)).toBe('H1:Rooms on your network');
    await walk(page, 'lan-loading');
    holdLanStart = false;
    for (const release of heldLanStart.splice(0)) release();
    await expect.poll(() => page.getByRole('heading', { name: 'No rooms found yet' }).isVisible()).toBe(true);
    const firewall = await page.locator('.checklist li', { hasText: 'Firewall.' }).textContent();
    expect(firewall).toContain(`UDP ${discoveryPort} to find rooms`);
    if (discoveryPort !== 9998) expect(firewall).not.toContain('9998');
    const bullet = await page.evaluate(`getComputedStyle(document.querySelector('.checklist li'), '::before').content`);
    expect(bullet).not.toContain('✓');
    await walk(page, 'lan-empty');
    await page.getByRole('button', { name: 'Back to home' }).click();
  });

  it('host setup, then the host’s room while alone', async () => {
    const { page } = ada;
    await ada.focus();
    await page.getByRole('button', { name: /Host a room/ }).click();
    await expect.poll(() => focused(page)).toBe('H1:Host a room');
    await walk(page, 'host');
    // At the default window the whole form shows without scrolling, its Open room button included.
    await page.setViewportSize(SIZES[0]);
    await finishTransitions(page);
    const open = await page.getByRole('button', { name: 'Open room' }).boundingBox();
    expect(open && open.y + open.height).toBeLessThanOrEqual(SIZES[0].height);
    await page.getByRole('button', { name: 'Open room' }).click();
    await expect.poll(() => page.getByTestId('room-code').isVisible()).toBe(true);
    await expect.poll(() => focused(page)).toBe("H1:ada's room");
    code = (await page.getByTestId('room-code').textContent()) ?? '';
    await walk(page, 'room-host-alone');
  });

  it('LAN list with rooms: in lobby, in a round, full, added by address, and one that does not answer', async () => {
    const shared = { port: discoveryPort, networkInterfaces: loopbackInterfaces, logger: silentLogger };
    responders.push(
      await startLanDiscovery({
        ...shared,
        name: 'Friday finals',
        gamePort: 7301,
        getPlayerCount: () => 3,
        getExtraInfo: () => ({ capacity: 8, gameName: 'LAN Party Tag', hostName: 'Cleo', inRound: true }),
      }),
      await startLanDiscovery({
        ...shared,
        name: 'Packed house',
        gamePort: 7302,
        getPlayerCount: () => 4,
        getExtraInfo: () => ({ capacity: 4, gameName: 'LAN Party Tag', hostName: 'Dev', inRound: false }),
      }),
    );
    const vpnPort = await freeUdpPort();
    const silentPort = await freeUdpPort();
    responders.push(
      await startLanDiscovery({
        port: vpnPort,
        bindAddress: '127.0.0.2',
        registry: new DiscoveryPortRegistry(undefined, silentLogger),
        networkInterfaces: loopbackInterfaces,
        logger: silentLogger,
        name: 'Over the tailnet',
        gamePort: 7303,
        getPlayerCount: () => 1,
        getExtraInfo: () => ({ capacity: 6, gameName: 'LAN Party Tag', hostName: 'Eve', inRound: false }),
      }),
    );

    const { page } = bob;
    await bob.focus();
    await page.getByRole('button', { name: /Browse the LAN/ }).click();
    const rows = page.getByTestId('server-row');
    await expect.poll(() => rows.count(), { timeout: 5000 }).toBe(3);
    expect(await page.getByText('Hosted by ada').isVisible()).toBe(true);
    const roundRow = rows.filter({ hasText: 'Friday finals' });
    expect(await roundRow.getByText('Round in progress', { exact: true }).isVisible()).toBe(true);
    expect(await roundRow.getByRole('button', { name: 'Join Friday finals' }).isDisabled()).toBe(true);
    expect(await roundRow.getByText('Round in progress: join when it ends').isVisible()).toBe(true);
    const fullRow = rows.filter({ hasText: 'Packed house' });
    expect(await fullRow.getByText('4/4').isVisible()).toBe(true);
    expect(await fullRow.getByRole('button', { name: 'Join Packed house' }).isDisabled()).toBe(true);
    expect(await fullRow.getByText('Room is full').isVisible()).toBe(true);
    expect(await rows.filter({ hasText: "ada's room" }).getByText('In lobby').isVisible()).toBe(true);

    // Add server by address: a bad one is refused in words, the VPN room is found, a silent one says so.
    const field = page.getByRole('textbox', { name: 'Add server by address' });
    await field.fill('bad host');
    await page.getByRole('button', { name: 'Add server' }).click();
    await expect.poll(() => page.locator('#lan-add-hint').textContent()).toBe('An address has no spaces or slashes.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill(`127.0.0.2:${vpnPort}`);
    await page.getByRole('button', { name: 'Add server' }).click();
    await expect.poll(() => rows.count(), { timeout: 5000 }).toBe(4);
    const vpnRow = rows.filter({ hasText: 'Over the tailnet' });
    expect(await vpnRow.getByText('Added by address').isVisible()).toBe(true);
    await expect.poll(() => vpnRow.locator('.server-ping').textContent()).toMatch(/Ping: (<1|\d+) ms/);
    await field.fill(`127.0.0.3:${silentPort}`);
    await page.getByRole('button', { name: 'Add server' }).click();
    const added = page.getByTestId('added-server');
    await expect.poll(() => added.filter({ hasText: `127.0.0.3:${silentPort}` }).textContent()).toContain('No answer');
    expect(await added.filter({ hasText: `127.0.0.2:${vpnPort}` }).textContent()).toContain('Answering');

    // Sorting: header buttons, keyboard too; aria-sort names the column and direction.
    const names = () => rows.locator('.server-name').allTextContents();
    expect(await names()).toEqual(["ada's room", 'Friday finals', 'Over the tailnet', 'Packed house']);
    expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('ascending');
    await page.getByRole('button', { name: /^Players/ }).click();
    expect(await page.getByRole('columnheader', { name: /Players/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(await names()).toEqual(["ada's room", 'Over the tailnet', 'Friday finals', 'Packed house']);
    await page.getByRole('button', { name: /^Players/ }).press('Enter');
    expect(await page.getByRole('columnheader', { name: /Players/ }).getAttribute('aria-sort')).toBe('descending');
    expect(await names()).toEqual(['Packed house', 'Friday finals', "ada's room", 'Over the tailnet']);
    await page.getByRole('button', { name: /^State/ }).click();
    expect(await names()).toEqual(["ada's room", 'Over the tailnet', 'Friday finals', 'Packed house']);
    expect(await page.locator('th[aria-sort]').count()).toBe(1);
    await walk(page, 'lan-servers');

    await page.getByRole('button', { name: `Remove 127.0.0.3:${silentPort}` }).click();
    await expect.poll(() => added.count()).toBe(1);
    await page.getByRole('button', { name: 'Back to home' }).click();
  });

  it('join: empty, then a mistyped code', async () => {
    const { page } = bob;
    await bob.focus();
    await page.getByRole('button', { name: /Join with a code/ }).click();
    await expect.poll(() => focused(page)).toBe('H1:Join a room');
    await walk(page, 'join-empty');
    await page.getByLabel('Room code').pressSequentially('abocd');
    await expect.poll(() => page.getByLabel('Room code').getAttribute('aria-invalid')).toBe('true');
    await walk(page, 'join-error');
    await page.getByLabel('Room code').fill('');
  });

  it('room: guest view with chat and ready, host view, kick asks first and Escape keeps the player', async () => {
    await bob.focus();
    await bob.page.getByLabel('Room code').fill(code);
    await bob.page.getByRole('button', { name: 'Join room' }).click();
    await expect.poll(() => bob.page.getByRole('button', { name: 'I’m ready' }).isVisible()).toBe(true);
    await expect.poll(() => focused(bob.page)).toBe("H1:ada's room");
    await bob.page.getByLabel('Chat message').fill('gg, ready when you are');
    await bob.page.getByRole('button', { name: 'Send message' }).click();
    await bob.page.getByRole('button', { name: 'I’m ready' }).click();
    await expect.poll(() => bob.page.getByRole('button', { name: 'Ready!' }).isVisible()).toBe(true);
    await walk(bob.page, 'room-guest');

    const { page } = ada;
    await ada.focus();
    await expect.poll(() => page.getByText('gg, ready when you are').isVisible()).toBe(true);
    await walk(page, 'room-host');
    const remove = page.getByRole('button', { name: 'Remove bob from the room' });
    await remove.click();
    const confirm = page.getByRole('group', { name: 'Remove bob?' });
    await expect.poll(() => confirm.isVisible()).toBe(true);
    await expect.poll(() => focused(page)).toBe('BUTTON:Cancel');
    await walk(page, 'room-kick-confirm');
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.isVisible()).toBe(false);
    await expect
      .poll(() => page.evaluate('document.activeElement?.getAttribute("aria-label")'))
      .toBe('Remove bob from the room');
    expect(await page.getByTestId('player-row').count()).toBe(2);
    await remove.click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByTestId('player-row').count()).toBe(1);

    await bob.focus();
    await expect.poll(() => bob.page.getByText('You were removed from the room').isVisible()).toBe(true);
    await walk(bob.page, 'room-ended');
  });

  it('network check', async () => {
    const { page } = bob;
    await bob.focus();
    await page.getByRole('button', { name: /Back/ }).first().click();
    await expect.poll(() => page.getByRole('heading', { name: /Ready to play/ }).isVisible()).toBe(true);
    await page.getByRole('button', { name: /Network check/ }).click();
    await expect.poll(() => focused(page)).toBe('H1:Network check');
    await expect.poll(() => page.locator('.verdict').isVisible(), { timeout: 15_000 }).toBe(true);
    await walk(page, 'netcheck');
  });

  it('error screen: no backend to talk to', async () => {
    const page = await session.browser.context.newPage();
    try {
      await page.setViewportSize(SIZES[0]);
      await page.goto(new URL('/', bob.server.url).href); // no binding in the URL: nothing to connect to
      await expect
        .poll(() => page.getByRole('heading', { name: 'Can’t reach the LAN Party backend' }).isVisible())
        .toBe(true);
      await walk(page, 'error');
    } finally {
      await page.close();
    }
    expect(ada.pageErrors).toEqual([]);
  });
});
