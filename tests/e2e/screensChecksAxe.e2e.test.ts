import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason, launchChromium, type LaunchedChromium } from './support/chromium';
import { axe, headingOrder } from './screensChecks';

// The accessibility check every screen walk leans on, against pages whose answer is known: grey on grey text is a
// serious contrast violation, a skipped heading level is a (moderate) heading-order one, a plain page has neither;
// and the engine is there again after the document is replaced.
const skip = chromiumSkipReason();

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><title>axe check</title></head><body><main>${body}</main></body></html>`;

describe.skipIf(skip)(`axe in the screen walks${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let browser: LaunchedChromium;
  let tab: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    tab = await browser.context.newPage();
  });
  afterAll(() => browser?.close());

  it('finds nothing serious on a plain page', async () => {
    await tab.setContent(page('<h1>Rooms</h1><p style="color:#111;background:#fff">Plain text</p>'));
    expect(await axe(tab, 'plain')).toEqual([]);
    expect(await headingOrder(tab)).toEqual([]);
  });

  it('reports grey on grey text as a serious colour-contrast violation, naming the element', async () => {
    await tab.setContent(page('<h1>Rooms</h1><p id="faint" style="color:#777;background:#888">Faint text</p>'));
    const found = await axe(tab, 'faint');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^faint: serious color-contrast .* at #faint: /);
  });

  it('reports a skipped heading level through the heading-order rule only', async () => {
    await tab.setContent(page('<h1>Rooms</h1><h4 id="deep">Too deep</h4>'));
    expect(await headingOrder(tab)).toEqual([expect.stringMatching(/^#deep: /)]);
    // Moderate, so the walk prints it rather than failing the screen.
    expect(await axe(tab, 'deep')).toEqual([]);
  });
});
