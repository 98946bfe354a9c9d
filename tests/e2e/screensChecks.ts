import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import axeCore from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEFAULT_ARENA } from '../../shared/games/tag/rules';
import { SCREENSHOT_DIR } from './support/screenshots';

/** The Electron window's first-launch page size, and a large one. */
export const SIZES = [
  { width: 1100, height: 720 },
  { width: 1600, height: 1000 },
] as const;

const SCHEMES = ['dark', 'light'] as const;
const BAD_IMPACTS = new Set(['serious', 'critical']);

type AxeViolation = axeCore.Result;

/**
 * axe-core's violations on the page as it is (only `rules`, when given). The engine is injected once per document and
 * run in it directly: @axe-core/playwright opened a blank page per check to merge frame results (the app has no
 * frames), ~1.2 s a check against ~0.1 s for the run itself, most of this suite's time.
 */
async function axeViolations(page: Page, rules?: readonly string[]): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof globalThis.axe === "object"'))) await page.evaluate(`${axeCore.source}\n;0`);
  return page.evaluate(async (only) => {
    const engine = (globalThis as unknown as { axe: typeof axeCore }).axe;
    const options: axeCore.RunOptions = { resultTypes: ['violations'] };
    if (only) options.runOnly = { type: 'rule', values: [...only] };
    const doc = (globalThis as unknown as { document: axeCore.ElementContext }).document;
    return (await engine.run(doc, options)).violations;
  }, rules ?? null);
}

/** Axe over the page as it is; returns the serious and critical violations, printing the others. */
export async function axe(page: Page, where: string): Promise<string[]> {
  const bad: string[] = [];
  for (const violation of await axeViolations(page)) {
    const targets = violation.nodes.map((node) => node.target.join(' ')).slice(0, 4);
    const why = violation.nodes[0]?.failureSummary?.replace(/\s+/g, ' ') ?? '';
    const line = `${where}: ${violation.impact} ${violation.id} (${violation.help}) at ${targets.join(' | ')}: ${why}`;
    if (BAD_IMPACTS.has(violation.impact ?? '')) bad.push(line);
    else console.log(`[axe] ${line}`);
  }
  return bad;
}

/** The page's heading-order violations (a moderate rule, so {@link walk} only prints it), as "target: summary". */
export async function headingOrder(page: Page): Promise<string[]> {
  const violations = await axeViolations(page, ['heading-order']);
  return violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`));
}

/** Finishes every running CSS transition (colours fade when the scheme flips), so what is checked is the end state. */
async function finishTransitions(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Running = { constructor: { name: string }; finish(): void };
    const doc = (globalThis as unknown as { document: { getAnimations(): Running[] } }).document;
    for (const animation of doc.getAnimations()) if (animation.constructor.name === 'CSSTransition') animation.finish();
  });
}

/** Switches the OS colour scheme and waits for the app to follow it (it sets data-theme), transitions finished. */
async function useScheme(page: Page, scheme: 'dark' | 'light'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  // The page hears the change in its next rendering step: on a loaded machine (a CI run of the results screen) that
  // took longer than the poll's default second.
  await expect
    .poll(() => page.evaluate('document.documentElement.dataset.theme ?? null'), { timeout: 10_000 })
    .toBe(scheme);
  await finishTransitions(page);
}

/**
 * What of the page must be on screen: a name for the message and a CSS selector (every match is checked). Each
 * element must lie inside the visible page and be the topmost thing at its centre and near its four corners.
 */
export type MustShow = Readonly<Record<string, string>>;

/** The elements of `must` that are missing, outside the visible page or covered (by what), at the page's size. */
export async function notShown(page: Page, must: MustShow): Promise<string[]> {
  return page.evaluate((entries) => {
    type Rect = { left: number; top: number; right: number; bottom: number; width: number; height: number };
    type El = {
      getBoundingClientRect(): Rect;
      contains(other: El | null): boolean;
      tagName: string;
      className: unknown;
    };
    const root = globalThis as unknown as {
      innerWidth: number;
      innerHeight: number;
      document: { querySelectorAll(s: string): ArrayLike<El>; elementFromPoint(x: number, y: number): El | null };
    };
    const name = (el: El | null) =>
      el ? `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]}` : 'nothing';
    const out: string[] = [];
    for (const [what, selector] of entries) {
      const found = Array.from(root.document.querySelectorAll(selector));
      if (found.length === 0) out.push(`${what}: not on the page`);
      for (const el of found) {
        const r = el.getBoundingClientRect();
        const box = `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}`;
        if (r.width < 1 || r.height < 1) out.push(`${what}: not laid out`);
        else if (r.left < -0.5 || r.top < -0.5 || r.right > root.innerWidth + 0.5 || r.bottom > root.innerHeight + 0.5)
          out.push(`${what}: outside the visible page (${box})`);
        else {
          const inset = Math.min(10, r.width / 4, r.height / 4);
          const points = [
            [(r.left + r.right) / 2, (r.top + r.bottom) / 2],
            [r.left + inset, r.top + inset],
            [r.right - inset, r.top + inset],
            [r.left + inset, r.bottom - inset],
            [r.right - inset, r.bottom - inset],
          ] as const;
          for (const [x, y] of points) {
            const top = root.document.elementFromPoint(x, y);
            if (top === el || el.contains(top)) continue;
            out.push(`${what}: covered at ${Math.round(x)},${Math.round(y)} by ${name(top)} (${box})`);
            break;
          }
        }
      }
    }
    return out;
  }, Object.entries(must));
}

/** What {@link walk} does on one screen. */
export interface WalkOptions {
  /** What must be on screen, uncovered, at both sizes in both themes. */
  readonly mustShow?: MustShow;
}

/**
 * Checks and photographs one screen at both sizes in both themes: what must show does (both sizes, both themes),
 * axe finds nothing serious or critical (color-contrast included) at both sizes in both themes, and the window is
 * saved as test-output/screenshots/screens-<name>-<w>x<h>[-light].png.
 */
export async function walk(page: Page, name: string, options: WalkOptions = {}): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const bad: string[] = [];
  try {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const scheme of SCHEMES) {
        await useScheme(page, scheme);
        const where = `${name} ${size.width}x${size.height} ${scheme}`;
        if (options.mustShow) bad.push(...(await notShown(page, options.mustShow)).map((p) => `${where}: ${p}`));
        bad.push(...(await axe(page, where)));
        const suffix = scheme === 'light' ? '-light' : '';
        await page.screenshot({
          path: join(SCREENSHOT_DIR, `screens-${name}-${size.width}x${size.height}${suffix}.png`),
          animations: 'disabled',
        });
      }
    }
  } finally {
    await useScheme(page, 'dark');
    await page.setViewportSize(SIZES[0]);
  }
  expect(bad).toEqual([]);
}

/** The focused element's tag and text, to check focus moved to a heading. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const active = (
      globalThis as unknown as { document: { activeElement: { tagName: string; textContent: string | null } | null } }
    ).document.activeElement;
    return active ? `${active.tagName}:${(active.textContent ?? '').trim()}` : 'none';
  });

/** "rgb(r, g, b)" (or #rrggbb) as numbers. */
export function rgbOf(css: string): [number, number, number] {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(css.trim());
  if (hex) return [1, 2, 3].map((i) => parseInt(hex[i]!, 16)) as [number, number, number];
  const parts = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(css);
  if (!parts) throw new Error(`not a colour: ${css}`);
  return [Number(parts[1]), Number(parts[2]), Number(parts[3])];
}

/**
 * The colour drawn at arena point (x, y) on the page's tag canvas: the pixel the renderer puts there, read back from
 * the canvas (the arena is fitted centred, data-scale CSS px per unit).
 */
export async function canvasColourAt(page: Page, x: number, y: number): Promise<[number, number, number]> {
  const rgb = await page.evaluate(
    ({ x, y, width, height }) => {
      type Canvas = {
        width: number;
        height: number;
        clientWidth: number;
        dataset: { scale?: string };
        getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: number[] } };
      };
      const doc = (globalThis as unknown as { document: { querySelector(s: string): Canvas | null } }).document;
      const canvas = doc.querySelector('[data-testid=game-canvas]');
      if (!canvas) return null;
      const ratio = canvas.width / canvas.clientWidth;
      const scale = Number(canvas.dataset.scale) * ratio;
      const px = Math.round((canvas.width - width * scale) / 2 + x * scale);
      const py = Math.round((canvas.height - height * scale) / 2 + y * scale);
      const data = canvas.getContext('2d').getImageData(px, py, 1, 1).data;
      return [data[0], data[1], data[2]];
    },
    { x, y, width: DEFAULT_ARENA.width, height: DEFAULT_ARENA.height },
  );
  if (rgb === null) throw new Error('no game canvas');
  return rgb as [number, number, number];
}

/** Whether two colours are the same to within `tolerance` per channel (canvas anti-aliasing aside). */
export const sameColour = (a: readonly number[], b: readonly number[], tolerance = 10): boolean =>
  a.every((value, i) => Math.abs(value - (b[i] ?? 0)) <= tolerance);

/** One computed style property of the first element a locator finds. */
export async function cssOf(locator: Locator, property: string): Promise<string> {
  return locator
    .first()
    .evaluate(
      (el, name) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { getPropertyValue(p: string): string } })
          .getComputedStyle(el)
          .getPropertyValue(name),
      property,
    );
}

/** Every element of the page scrolled away from its start (the document's scroller included), as "tag.class=top". */
export async function scrolledAway(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type El = { tagName: string; className: unknown; scrollTop: number; scrollLeft: number };
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }).document;
    return Array.from(doc.querySelectorAll('*'))
      .filter((el) => el.scrollTop !== 0 || el.scrollLeft !== 0)
      .map(
        (el) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]}=${el.scrollTop},${el.scrollLeft}`,
      );
  });
}

/** The first match's box in the window (CSS px, rounded), and whether it is drawn (visibility) and holds text. */
export async function placeOf(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      type Box = { left: number; top: number; width: number; height: number };
      const element = el as unknown as { getBoundingClientRect(): Box; textContent: string | null };
      const style = (
        globalThis as unknown as { getComputedStyle(e: unknown): { visibility: string } }
      ).getComputedStyle(el);
      const r = element.getBoundingClientRect();
      return {
        box: { x: Math.round(r.left), y: Math.round(r.top), width: Math.round(r.width), height: Math.round(r.height) },
        drawn: style.visibility === 'visible',
        text: (element.textContent ?? '').trim(),
      };
    });
}
