import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeUdpPort, loopbackNetwork } from '../support/loopbackNetwork';
import { startBackends, stopBackends, type TestBackend } from './support/backends';
import { chromiumSkipReason, launchChromium, type LaunchedChromium } from './support/chromium';
import { completeFirstRun } from './support/firstRun';
import { startTwoPlayerRound } from './support/startTwoPlayerRound';
import { saveScreenshot } from './support/screenshots';
import { createGameRegistry } from '../../shared/games/gameRegistry';
import { createLightCycles } from '../../shared/games/light-cycles/lightCyclesGame';
import { tagGame } from '../../shared/games/tag/tagGame';

// Light cycles, the second game, end to end: two real backends (loopback only, discovery on a free loopback port)
// and two browsers on the production build; Ada hosts and picks the game in the host form, Bob joins by code, one
// round is ridden to its end and both see the game's own winner-screen wording. Each page gets its own browser: a
// background tab gets no animation frames, and both grids must run at once.
const skipReason = chromiumSkipReason();
if (skipReason) console.warn(`[e2e] skipping browser tests: ${skipReason}`);

/** The window size of a laptop's default app window: the round must be readable, nothing cut off, at this size. */
const VIEWPORT = { width: 1100, height: 720 } as const;
/** What the winner screen says for a light-cycles round, as its definition words it. */
const HEADLINE = /^(You are|ada is|bob is) the last cycle riding!$|^A draw: .+ share the round!$/;

/** Polls on a busy machine: two browsers and two backends share the cores with a spinner. */
const PATIENTLY = { timeout: 8000 } as const;
/** How long the winner screen holds here: long enough to read both pages on a busy machine (the app's is 5 s). */
const RESULTS_HOLD_SECONDS = 60;

/**
 * The app's games, light cycles with a 3-2-1 of 8 s instead of 2: riders meet a wall a few seconds after it, and on
 * a busy machine the steps from Start to the first turn can take longer than that; a turn during the countdown is
 * kept, so the round cannot end before the test has turned both cycles.
 */
const GAMES_WITH_LONG_COUNTDOWN = createGameRegistry([tagGame, createLightCycles({ countdown: 8 })]);

/** The winner screen's words, read in one look. */
interface Results {
  readonly title: string;
  readonly kicker: string;
  readonly scores: string[];
  readonly stats: string[];
}

/** The winner screen's words in the page (evaluated there, where the DOM is), or null while it is not shown. */
const RESULTS_NOW = `(() => {
  const dialog = document.querySelector('[role="dialog"].results');
  if (!dialog) return null;
  const texts = (selector) => Array.from(dialog.querySelectorAll(selector), (node) => node.textContent ?? '');
  return {
    title: dialog.querySelector('#results-title')?.textContent ?? '',
    kicker: dialog.querySelector('.results-kicker')?.textContent ?? '',
    scores: texts('.results-score'),
    stats: texts('.results-stat'),
  };
})()`;

/** The winner screen on `page` as it stands now, or null while it is not shown. */
async function resultsOn(page: Page): Promise<Results | null> {
  return page.evaluate<Results | null>(RESULTS_NOW);
}

interface Rider {
  readonly browser: LaunchedChromium;
  readonly page: Page;
  readonly errors: string[];
}

async function openPage(backend: TestBackend): Promise<Rider> {
  const browser = await launchChromium();
  const page = await browser.context.newPage();
  await page.setViewportSize(VIEWPORT);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(backend.server.url);
  return { browser, page, errors };
}

/** The local rider's head on the grid (cells), as the stage publishes it a few times a second. */
async function head(page: Page): Promise<{ x: number; y: number }> {
  const value = (await page.getByTestId('game-arena').getAttribute('data-self')) ?? '';
  const [x, y] = value.split(',').map(Number);
  if (x === undefined || y === undefined || Number.isNaN(x) || Number.isNaN(y)) throw new Error(`no head: ${value}`);
  return { x, y };
}

describe.skipIf(skipReason !== null)(
  'light cycles in Chromium: a round through the lobby',
  { timeout: 120_000 },
  () => {
    let backends: TestBackend[] = [];
    let ada: Rider;
    let bob: Rider;

    beforeAll(async () => {
      backends = await startBackends(2, {
        osUserNames: ['ada', 'bob'],
        network: loopbackNetwork(await freeUdpPort()),
        game: { resultsHoldSeconds: RESULTS_HOLD_SECONDS, games: GAMES_WITH_LONG_COUNTDOWN },
      });
      ada = await openPage(backends[0]!);
      bob = await openPage(backends[1]!);
    }, 60_000);

    afterAll(async () => {
      await ada?.browser.close();
      await bob?.browser.close();
      await stopBackends(backends);
    });

    it('is a card in the host form; Ada picks it, Bob joins, and both pages show the grid', async () => {
      await completeFirstRun(ada.page);
      await completeFirstRun(bob.page);
      await ada.page.getByRole('button', { name: /Host a room/ }).click();
      const card = ada.page.getByRole('radio', { name: 'Light Cycles' });
      await expect.poll(() => card.isVisible()).toBe(true);
      expect(await ada.page.locator('.game-card', { has: card }).textContent()).toContain('2–8 players');
      // The card's name covers it (the whole card is the click target): click it as a player would.
      await ada.page.locator('.game-card', { has: card }).getByText('Light Cycles', { exact: true }).click();
      expect(await card.isChecked()).toBe(true);
      await saveScreenshot(ada.page, 'light-cycles-host-form');
      await startTwoPlayerRound(ada.page, bob.page);
      for (const { page } of [ada, bob]) {
        await expect
          .poll(() => page.getByRole('application', { name: 'Light Cycles arena' }).isVisible(), PATIENTLY)
          .toBe(true);
        await expect
          .poll(() => page.getByTestId('cycles-riding').textContent(), PATIENTLY)
          .toBe('2 of 2 cycles riding');
        await expect
          .poll(() => page.getByTestId('game-arena').getAttribute('data-self'), PATIENTLY)
          .toMatch(/^\d+,\d+$/);
      }
    });

    it('turns Ada’s cycle on a key press and Bob’s on the touch pad, draws both trails, and ends the round with the game’s wording', async () => {
      // Both turns are made during the (lengthened) 3-2-1 and kept when the riding starts. Ada turns across the grid
      // towards its far side; who then outlasts whom depends on the spawns the seed gave them, so the wording of
      // either outcome (a win or a draw) is accepted, never another.
      await ada.page.getByTestId('game-arena').focus();
      const before = await head(ada.page);
      await ada.page.keyboard.press(before.y > 18 ? 'ArrowUp' : 'ArrowDown');
      // Bob turns with the touch pad the stage drew from the game's controls (shown on touch screens only, so the
      // pointer events are dispatched to it rather than clicked); a busy machine draws it a frame later.
      const bobBefore = await head(bob.page);
      const pad = bob.page.getByTestId(bobBefore.y > 18 ? 'touch-up' : 'touch-down');
      await expect.poll(() => bob.page.locator('.touch-pad .touch-button').count(), PATIENTLY).toBe(4);
      await pad.dispatchEvent('pointerdown', { pointerId: 7, bubbles: true });
      await pad.dispatchEvent('pointerup', { pointerId: 7, bubbles: true });
      for (const [who, page, start] of [
        ['Ada (keys)', ada.page, before],
        ['Bob (touch pad)', bob.page, bobBefore],
      ] as const) {
        await expect
          .poll(async () => Math.abs((await head(page)).y - start.y), { timeout: 15_000, message: `${who} turned` })
          .toBeGreaterThanOrEqual(2);
      }
      await saveScreenshot(ada.page, 'light-cycles-round-host');
      await saveScreenshot(bob.page, 'light-cycles-round-guest');
      // Both winner screens are read at once, each in one look (the rows may be drawn a frame after the dialog).
      let shown: (Results | null)[] = [];
      await expect
        .poll(
          async () =>
            (shown = await Promise.all([ada, bob].map(({ page }) => resultsOn(page)))).every(
              (r) => r?.stats.length === 2,
            ),
          { timeout: 30_000 },
        )
        .toBe(true);
      for (const results of shown as Results[]) {
        expect(results.title).toMatch(HEADLINE);
        expect(results.kicker).toContain('score: outlasted');
        // Ranked by riders outlasted: the winner outlasted the other, or a draw where neither did.
        expect(results.scores).toEqual(
          results.title.startsWith('A draw')
            ? ['0 riders outlasted', '0 riders outlasted']
            : ['1 rider outlasted', '0 riders outlasted'],
        );
        expect(results.stats).toEqual([expect.stringMatching(/^\d+ cells?$/), expect.stringMatching(/^\d+ cells?$/)]);
      }
      await saveScreenshot(ada.page, 'light-cycles-winner-host');
      // The host ends the results for everyone (they would hold a minute) and may start the next round.
      await ada.page.getByRole('button', { name: 'Back to the lobby' }).click();
      await expect
        .poll(() => ada.page.getByRole('button', { name: 'Start round' }).isVisible(), { timeout: 15_000 })
        .toBe(true);
      expect(ada.errors).toEqual([]);
      expect(bob.errors).toEqual([]);
    });
  },
);
