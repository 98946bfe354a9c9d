import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * From the host form on `host` (its game already picked): opens the room, `guest` joins by the code it shows and
 * readies, and the host starts the round once Start is enabled.
 */
export async function startTwoPlayerRound(host: Page, guest: Page): Promise<void> {
  await host.getByRole('button', { name: 'Open room' }).click();
  const code = host.getByTestId('room-code');
  await expect.poll(() => code.isVisible()).toBe(true);
  await guest.getByRole('button', { name: /Join with a code/ }).click();
  await guest.getByLabel('Room code').fill((await code.textContent()) ?? '');
  await guest.getByRole('button', { name: 'Join room' }).click();
  await guest.getByRole('button', { name: 'I’m ready' }).click();
  const start = host.getByRole('button', { name: 'Start round' });
  await expect.poll(() => start.isEnabled()).toBe(true);
  await start.click();
}
