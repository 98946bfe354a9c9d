import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium; CI installs it (.ci/run). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags for a quiet, sandbox-free headless run that never phones home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** Why browser tests cannot run here, or null when they can. */
export function chromiumSkipReason(): string | null {
  return existsSync(CHROMIUM_PATH) ? null : `${CHROMIUM_PATH} not found (apt-get install -y chromium)`;
}

/** A browser context with its own throwaway profile folder. */
export interface LaunchedChromium {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh temp profile that is deleted on close. */
export async function launchChromium(): Promise<LaunchedChromium> {
  const profileDir = await mkdtemp(join(tmpdir(), 'lan-party-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS],
      viewport: { width: 1280, height: 800 },
      // Explicit, since Playwright's default is light: pages start dark, and screenshots add the light set.
      colorScheme: 'dark',
      // No endless animations (the LAN radar, spinners): each kept a page compositing 60 frames a second.
      reducedMotion: 'reduce',
    });
    return {
      context,
      async close() {
        await context.close().catch(() => undefined);
        await rm(profileDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(profileDir, { recursive: true, force: true });
    throw error;
  }
}
