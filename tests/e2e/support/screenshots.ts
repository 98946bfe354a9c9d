import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';

/** Where browser tests leave screenshots for humans to look at. */
export const SCREENSHOT_DIR = resolve(__dirname, '../../../test-output/screenshots');

/** Saves a full-page screenshot as test-output/screenshots/<name>.png and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  if (!/^[a-z0-9][a-z0-9._-]{0,80}$/i.test(name)) throw new Error(`Bad screenshot name "${name}"`);
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  // A full-page shot of a scrolled page draws the sticky header mid-page: start from the top.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}
