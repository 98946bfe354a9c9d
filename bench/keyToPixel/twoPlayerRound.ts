import type { Page } from 'playwright-core';
import { startBackends, stopBackends, type TestBackend } from '../../tests/e2e/support/backends';
import { launchChromium, type LaunchedChromium } from '../../tests/e2e/support/chromium';
import { freeUdpPort, loopbackNetwork } from '../../tests/support/loopbackNetwork';
import type { DevLinkProfile } from '../../main/conditioner/devConditioner';
import { PROBE_SCRIPT, recorder } from './pageProbe';

/** How one round is set up: the guest's link, and the page query (e.g. h-interp's `interp=fixed`). */
export interface RoundSetup {
  /** The guest's simulated link to the host (the app's developer conditioner, both directions); null: clean. */
  readonly link: DevLinkProfile | null;
  /** Added to both pages' URL as the query string, '' for none. */
  readonly query: string;
  /** The host's fixed snapshot rate (30: the old one); undefined: chosen per room. */
  readonly snapshotsPerSecond?: number;
  readonly rendererDir: string;
}

/** A round in progress: host and guest pages, each in its own browser on its own backend. */
export interface PlayingRound {
  readonly host: Page;
  readonly guest: Page;
  /** Snapshots a second the host sends the room now (its own choice unless the setup fixed it). */
  hostSnapshotRate(): number | null;
  close(): Promise<void>;
}

/** Long enough for every trial of a round; the round never ends before the bench closes it. */
const ROUND_SECONDS = 600;
/** How long one step of setting up may take on a busy machine. */
const STEP_MS = 30_000;

/** The page at `url` with `query` as its query string (the binding's hash kept). */
export function withQuery(url: string, query: string): string {
  if (query === '') return url;
  const u = new URL(url);
  u.search = query;
  return u.toString();
}

async function waitUntil(what: string, condition: () => Promise<boolean>, timeoutMs = STEP_MS): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`key-to-pixel bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The first-run step, through the page as a player does it. */
async function firstRun(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Let’s play' }).click({ timeout: STEP_MS });
  await page.getByRole('button', { name: /^Edit profile:/ }).waitFor({ timeout: STEP_MS });
}

/**
 * Two backends on loopback (explicit loopback network options), one browser each (a background tab gets no
 * animation frames, and both arenas must draw at once), the probe in both pages; the host opens a tag room, the
 * guest joins by its code (through the conditioner when `link` is set), readies, the host starts, and this returns
 * once both pages draw both players with the countdown over.
 */
export async function startPlayingRound(setup: RoundSetup): Promise<PlayingRound> {
  const discoveryPort = await freeUdpPort();
  const backends: TestBackend[] = await startBackends(2, {
    network: loopbackNetwork(discoveryPort),
    game: {
      roundDuration: ROUND_SECONDS,
      ...(setup.snapshotsPerSecond !== undefined ? { snapshotsPerSecond: setup.snapshotsPerSecond } : {}),
    },
    rendererDir: setup.rendererDir,
    osUserNames: ['host', 'guest'],
  });
  const browsers: LaunchedChromium[] = [];
  const close = async () => {
    for (const b of browsers) await b.close();
    await stopBackends(backends);
  };
  try {
    const pages: Page[] = [];
    for (const backend of backends) {
      const browser = await launchChromium();
      browsers.push(browser);
      const page = await browser.context.newPage();
      await page.addInitScript(PROBE_SCRIPT);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(withQuery(backend.server.url, setup.query));
      await firstRun(page);
      pages.push(page);
    }
    const [host, guest] = pages as [Page, Page];
    if (setup.link) backends[1]!.server.backend.devConditioner.set(setup.link);
    await host.getByRole('button', { name: /Host a room/ }).click({ timeout: STEP_MS });
    await host.getByRole('button', { name: 'Open room' }).click({ timeout: STEP_MS });
    const code = host.getByTestId('room-code');
    await code.waitFor({ timeout: STEP_MS });
    await guest.getByRole('button', { name: /Join with a code/ }).click({ timeout: STEP_MS });
    await guest.getByLabel('Room code').fill((await code.textContent()) ?? '');
    await guest.getByRole('button', { name: 'Join room' }).click({ timeout: STEP_MS });
    await guest.getByRole('button', { name: 'I’m ready' }).click({ timeout: STEP_MS });
    // Enabled once the guest's ready has reached the host; click() waits for that.
    await host.getByRole('button', { name: 'Start round' }).click({ timeout: STEP_MS });
    for (const page of [host, guest]) {
      await waitUntil('the round to start on both pages', async () => {
        const last = await recorder.last(page);
        return last !== null && last.phase === 'playing' && last.countdown === 0 && last.players === 2;
      });
      await page.getByTestId('game-arena').focus();
    }
    const hostSnapshotRate = () => backends[0]!.server.backend.game.handlers['net.stats']().snapshotsPerSecond;
    return { host, guest, hostSnapshotRate, close };
  } catch (error) {
    await close();
    throw error;
  }
}
