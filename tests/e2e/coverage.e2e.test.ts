import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumSkipReason, launchChromium, type LaunchedChromium } from './support/chromium';
import { coverOf } from './support/coverage';

// The helper the layout tests lean on, against pages whose answer is known: a bar in the flow below a scroller
// covers nothing; a bar laid over the scrolling content covers the last row.
const skip = chromiumSkipReason();

const page = (barStyle: string) => `<!doctype html><html><body style="margin:0">
  <div style="display:flex;flex-direction:column;height:300px">
    <div id="scroller" style="flex:1;min-height:0;overflow-y:auto">
      ${Array.from({ length: 20 }, (_, i) => `<div class="row" style="height:40px">row ${i}</div>`).join('')}
    </div>
    <div class="bar" style="height:60px;background:#333;${barStyle}">bar</div>
  </div></body></html>`;

describe.skipIf(skip)(`coverOf${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let browser: LaunchedChromium;
  let tab: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    tab = await browser.context.newPage();
    await tab.setViewportSize({ width: 400, height: 300 });
  });
  afterAll(() => browser?.close());

  it('a bar below the scroller covers nothing: the last row shows above it and takes the click', async () => {
    await tab.setContent(page('flex:none'));
    const coverage = await coverOf(tab.locator('.row').last(), tab.locator('.bar'));
    expect(coverage).toMatchObject({ aboveBar: true, hittable: true, bar: { y: 240, height: 60 } });
  });

  it('a bar laid over the scrolling content covers the last row: neither above it nor hittable', async () => {
    await tab.setContent(page('position:fixed;left:0;right:0;bottom:0'));
    const coverage = await coverOf(tab.locator('.row').last(), tab.locator('.bar'));
    expect(coverage).toMatchObject({ aboveBar: false, hittable: false, bar: { y: 240, height: 60 } });
  });

  it('a translucent bar drawn over the row is caught by the hit test even when the boxes alone cannot tell', async () => {
    await tab.setContent(page('position:fixed;left:0;right:0;top:0;opacity:0.5'));
    const coverage = await coverOf(tab.locator('.row').first(), tab.locator('.bar'));
    expect(coverage.hittable).toBe(false);
  });
});
