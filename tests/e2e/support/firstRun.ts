import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Finishes the first-run step on a fresh profile (optionally renaming), landing on the home screen. */
export async function completeFirstRun(page: Page, name?: string): Promise<void> {
  const heading = page.getByRole('heading', { name: 'Who’s playing tonight?' });
  await expect.poll(() => heading.isVisible()).toBe(true);
  const field = page.getByLabel('Player name');
  if (name !== undefined) await field.fill(name);
  const finalName = await field.inputValue();
  await page.getByRole('button', { name: 'Let’s play' }).click();
  await expect
    .poll(() => page.getByRole('button', { name: `Edit profile: ${finalName.trim()}` }).isVisible())
    .toBe(true);
}
