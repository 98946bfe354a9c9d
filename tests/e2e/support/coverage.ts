import type { Locator } from 'playwright-core';

// The tests are type-checked without the DOM library: the little of it the page-side function uses.
interface PageElement {
  getBoundingClientRect(): { left: number; top: number; width: number; height: number };
  contains(other: unknown): boolean;
}
interface PageDocument {
  elementFromPoint(x: number, y: number): unknown;
}

/** What {@link coverOf} found: the two boxes and whether the target, scrolled into view, can be hit. */
export interface Coverage {
  /** The target's bottom edge is at or above the bar's top edge. */
  readonly aboveBar: boolean;
  /** The element at the target's centre is the target (or inside it), not something drawn over it. */
  readonly hittable: boolean;
  readonly target: { y: number; height: number };
  readonly bar: { y: number; height: number };
}

/**
 * Scrolls `target` into view from above and says whether `bar` covers any of it: by bounding boxes and by
 * hit-testing the target's centre, so a translucent or mis-stacked bar is caught too. Scrolling, both boxes and the
 * hit test happen in one page task, so a re-render between them (a ping arriving, a notice) cannot skew the answer.
 */
export async function coverOf(target: Locator, bar: Locator): Promise<Coverage> {
  const barHandle = await bar.elementHandle();
  if (barHandle === null) throw new Error('the bar is not in the page');
  try {
    // Runs in the page (Playwright sends its source), so it may use nothing from this module.
    const found = await target.evaluate((node, barNode) => {
      const element = node as unknown as PageElement & { scrollIntoView(options: { block: 'end' }): void };
      // Scrolled until it just shows at the bottom edge, as a player scrolling down to it sees it: where a bar laid
      // over the scrolling content would cover it (scrolling it to the centre would hide the problem).
      element.scrollIntoView({ block: 'end' });
      const pageDocument = (globalThis as unknown as { document: PageDocument }).document;
      const rect = element.getBoundingClientRect();
      const barRect = (barNode as unknown as PageElement).getBoundingClientRect();
      const hit = pageDocument.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      return {
        target: { y: rect.top, height: rect.height },
        bar: { y: barRect.top, height: barRect.height },
        hittable: hit !== null && (hit === element || element.contains(hit)),
      };
    }, barHandle);
    if (found.target.height === 0 || found.bar.height === 0) throw new Error('target or bar is not laid out');
    return { aboveBar: found.target.y + found.target.height <= found.bar.y + 0.5, ...found };
  } finally {
    await barHandle.dispose();
  }
}
