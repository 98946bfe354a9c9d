import type { Page } from 'playwright-core';
import type { ClockReading } from './clockOffset';

/** The page's recorder, as the init script below names it. */
const RECORDER = '__lanPartyKeyToPixel';

/**
 * Added to every page before its own scripts: the render loop's frame probe (renderer/src/game/frameProbe.ts) and a
 * capturing keydown listener record, while armed, each frame's times (performance.now() once drawn, and the moment
 * the view was sampled for, ms), where it drew its own player and the other one and how far in the past it drew the
 * other (ms), and the last keydown's event time. Read-only: nothing of the frame is changed.
 * A string, so this Node-typed file needs no DOM types.
 */
export const PROBE_SCRIPT = `(() => {
  const MAX_FRAMES = 20000;
  const state = { armed: false, frames: [], keyAt: null, last: null };
  const row = (p) => (p ? [p.x, p.y, typeof p.extrapolated === 'boolean' ? p.extrapolated : null] : null);
  window.__lanPartyFrameProbe = (now, frame, delay) => {
    if (!frame || !Array.isArray(frame.players)) return;
    const self = frame.players.find((p) => p.self);
    const other = frame.players.find((p) => !p.self);
    state.last = { phase: frame.phase, countdown: frame.countdown, players: frame.players.length };
    if (!state.armed || state.frames.length >= MAX_FRAMES) return;
    state.frames.push([performance.now(), now * 1000, row(self), row(other), typeof delay === 'number' ? delay * 1000 : null]);
  };
  window.addEventListener('keydown', (e) => { if (!e.repeat) state.keyAt = e.timeStamp; }, true);
  window.${RECORDER} = {
    arm() { state.frames = []; state.keyAt = null; state.armed = true; },
    take() { state.armed = false; const out = { frames: state.frames, keyAt: state.keyAt }; state.frames = []; return out; },
    origin() { return performance.timeOrigin; },
    last() { return state.last; },
    movedSince(which, threshold) {
      const i = which === 'self' ? 2 : 3;
      const first = state.frames.find((f) => f[i]);
      const latest = state.frames[state.frames.length - 1];
      if (!first || !latest || !latest[i]) return false;
      return Math.hypot(latest[i][0] - first[i][0], latest[i][1] - first[i][1]) >= threshold;
    },
    stillFor(which, ms, tolerance) {
      const i = which === 'self' ? 2 : 3;
      const latest = state.frames[state.frames.length - 1];
      if (!latest || !latest[i] || latest[0] - state.frames[0][0] < ms) return false;
      for (let k = state.frames.length - 1; k >= 0 && latest[0] - state.frames[k][0] <= ms; k--) {
        const f = state.frames[k][i];
        if (!f || Math.hypot(f[0] - latest[i][0], f[1] - latest[i][1]) > tolerance) return false;
      }
      return true;
    },
  };
})();`;

/** One player's position in a recorded frame, and whether the view said it extrapolated (null: it does not say). */
export type ProbedPlayer = [x: number, y: number, extrapolated: boolean | null] | null;

/**
 * A recorded frame: page times (ms) once drawn and of the moment drawn, the page's own player, the other player, and
 * the interpolation delay it drew the other with (ms; null when the page does not say).
 */
export type ProbedFrame = [
  drawn: number,
  sampled: number,
  self: ProbedPlayer,
  other: ProbedPlayer,
  delay: number | null,
];

/** What a page recorded while armed. */
export interface Recording {
  readonly frames: ProbedFrame[];
  /** Page time of the last keydown (its event time), null when none came. */
  readonly keyAt: number | null;
}

/** The last frame's round state, null before any frame. */
export interface FrameState {
  readonly phase: string;
  readonly countdown: number;
  readonly players: number;
}

/** Which player of a page's frames: its own (self) or the other one. */
export type Which = 'self' | 'other';

/** The bench's handle on one page's recorder. */
export const recorder = {
  arm: (page: Page) => page.evaluate(`window.${RECORDER}.arm()`) as Promise<void>,
  take: (page: Page) => page.evaluate(`window.${RECORDER}.take()`) as Promise<Recording>,
  origin: (page: Page) => page.evaluate(`window.${RECORDER}.origin()`) as Promise<number>,
  last: (page: Page) => page.evaluate(`window.${RECORDER}.last()`) as Promise<FrameState | null>,
  movedSince: (page: Page, which: Which, threshold: number) =>
    page.evaluate(`window.${RECORDER}.movedSince(${JSON.stringify(which)}, ${threshold})`) as Promise<boolean>,
  /** Whether the player was drawn within `tolerance` units of one place for the last `ms` (a blended-out
   * correction never quite reaches zero, so exact equality may never come). */
  stillFor: (page: Page, which: Which, ms: number, tolerance: number) =>
    page.evaluate(`window.${RECORDER}.stillFor(${JSON.stringify(which)}, ${ms}, ${tolerance})`) as Promise<boolean>,
};

/** `count` readings of the page's performance clock against `clock` (the bench's), for clockOffset. */
export async function readPageClock(page: Page, clock: () => number, count = 15): Promise<ClockReading[]> {
  const readings: ClockReading[] = [];
  for (let i = 0; i < count; i++) {
    const before = clock();
    const at = (await page.evaluate('performance.now()')) as number;
    readings.push({ before, page: at, after: clock() });
  }
  return readings;
}
