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
 * hit-testing the target's centre, so a translucent or mis-stacked bar is caught too.
 */
export async function coverOf(target: Locator, bar: Locator): Promise<Coverage> {
  // Scrolled until it just shows at the bottom edge, as a player scrolling down to it sees it: where a bar laid
  // over the scrolling content would cover it (scrolling it to the centre would hide the problem).
  await target.evaluate((node) => {
    (node as unknown as { scrollIntoView(options: { block: 'end' }): void }).scrollIntoView({ block: 'end' });
  });
  const box = await target.boundingBox();
  const barBox = await bar.boundingBox();
  if (box === null || barBox === null) throw new Error('target or bar is not laid out');
  // Runs in the page (Playwright sends its source), so it may use nothing from this module.
  const hittable = await target.evaluate((node) => {
    const element = node as unknown as PageElement;
    const pageDocument = (globalThis as unknown as { document: PageDocument }).document;
    const rect = element.getBoundingClientRect();
    const hit = pageDocument.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  });
  return {
    aboveBar: box.y + box.height <= barBox.y + 0.5,
    hittable,
    target: { y: box.y, height: box.height },
    bar: { y: barBox.y, height: barBox.height },
  };
}
