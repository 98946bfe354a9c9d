import type { Page } from 'playwright-core';
import { startBackends, stopBackends, type StartBackendsOptions, type TestBackend } from './backends';
import { launchChromium, type LaunchedChromium } from './chromium';
import { saveScreenshot } from './screenshots';

/** One backend and the page showing it. */
export interface E2ePlayer extends TestBackend {
  readonly page: Page;
  /** Console errors and uncaught page errors, for asserting a clean run. */
  readonly pageErrors: string[];
  /**
   * Brings this player's tab to the front. Headless Chromium keeps every page as a tab of one window and
   * hardly renders background tabs, so clicks and screenshots there crawl: focus before driving a player.
   */
  focus(): Promise<void>;
}

/** A browser plus N players, each a page on its own backend. */
export interface E2eSession {
  readonly players: readonly E2ePlayer[];
  readonly browser: LaunchedChromium;
  /** Brings the page to the front and saves test-output/screenshots/<name>.png. */
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts `backends` backends, launches Chromium and opens one page per backend at its URL. */
export async function openE2eSession(backends: number, options: StartBackendsOptions = {}): Promise<E2eSession> {
  const started = await startBackends(backends, options);
  let browser: LaunchedChromium | null = null;
  try {
    browser = await launchChromium();
    const players: E2ePlayer[] = [];
    for (const backend of started) {
      const page = await browser.context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') pageErrors.push(message.text());
      });
      await page.goto(backend.server.url);
      players.push({ ...backend, page, pageErrors, focus: () => page.bringToFront() });
    }
    await players[0]?.focus();
    const launched = browser;
    return {
      players,
      browser: launched,
      async screenshot(page, name) {
        await page.bringToFront();
        return saveScreenshot(page, name);
      },
      async close() {
        await launched.close();
        await stopBackends(started);
      },
    };
  } catch (error) {
    await browser?.close();
    await stopBackends(started);
    throw error;
  }
}
