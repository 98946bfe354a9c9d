import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';

/** Where browser tests leave screenshots for humans to look at. */
export const SCREENSHOT_DIR = resolve(__dirname, '../../../test-output/screenshots');

/** The OS colour schemes every screenshot is taken in: `<name>.png` dark, `<name>-light.png` light. */
export const SCHEMES = [
  { scheme: 'dark', suffix: '' },
  { scheme: 'light', suffix: '-light' },
] as const;

function pathFor(name: string, suffix: string): string {
  if (!/^[a-z0-9][a-z0-9._-]{0,80}$/i.test(name)) throw new Error(`Bad screenshot name "${name}"`);
  return join(SCREENSHOT_DIR, `${name}${suffix}.png`);
}

/**
 * Takes `shoot` once per OS colour scheme (the app follows it unless the player chose a theme), then puts the
 * page back in dark. Returns the paths, dark first.
 */
async function inEachScheme(page: Page, name: string, shoot: (path: string) => Promise<unknown>): Promise<string[]> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const paths: string[] = [];
  try {
    for (const { scheme, suffix } of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      const path = pathFor(name, suffix);
      await shoot(path);
      paths.push(path);
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'dark' });
  }
  return paths;
}

/** Saves full-page screenshots as test-output/screenshots/<name>.png and <name>-light.png; returns the dark one. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  // A full-page shot of a scrolled page draws the sticky header mid-page: start from the top.
  await page.evaluate('window.scrollTo(0, 0)');
  const [dark] = await inEachScheme(page, name, (path) =>
    page.screenshot({ path, fullPage: true, animations: 'disabled' }),
  );
  return dark!;
}

/** Saves one element in both schemes, as <name>.png and <name>-light.png; returns the dark one. */
export async function saveElementScreenshot(page: Page, element: Locator, name: string): Promise<string> {
  const [dark] = await inEachScheme(page, name, (path) => element.screenshot({ path, animations: 'disabled' }));
  return dark!;
}
