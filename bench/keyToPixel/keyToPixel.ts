import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { fitArena } from '../../renderer/src/game/arenaTransform';
import { DEFAULT_ARENA, RULES } from '../../shared/games/tag/rules';
import type { DevLinkProfile } from '../../main/conditioner/devConditioner';
import type { BenchResult } from '../benchResult';
import { percentile } from '../percentile';
import { originOffset, type ClockOffset } from './clockOffset';
import { firstMove, pathErrors, snappedFrames, type DrawnSample } from './motionTrace';
import { readPageClock, recorder, type ProbedFrame, type Which } from './pageProbe';
import { buildRenderer } from './rendererBuild';
import { startPlayingRound, type PlayingRound, type RoundSetup } from './twoPlayerRound';

/** Trials per direction and round (the issue asks for at least 20). */
const TRIALS = 20;
/** A key is held at least this long, and until the other page has drawn the move. */
const HOLD_MS = 250;
/** After the key-up, both pages must draw the mover still this long before the next trial. */
const STILL_MS = 250;
const TRIAL_TIMEOUT_MS = 5000;
/** A mover its own page has not drawn moving by then is against a wall. */
const BLOCKED_MS = 1000;
/** The issue's link: 20 ms ± 5 ms and 2% loss, each way (the app's developer conditioner on the guest). */
export const CONDITIONED: DevLinkProfile = { latencyMs: 20, jitterMs: 5, loss: 0.02 };
const CONDITIONED_RTT_MS = 2 * CONDITIONED.latencyMs;
/** Canvas margin of tag's arena renderer (renderer/src/games/tag/arenaRenderer.ts), CSS pixels at ratio 1. */
const ARENA_MARGIN = 4;
/**
 * The old behaviour, measured beside the current one in the same run: the page flag for the old fixed interpolation
 * delays (50 ms on the host, 100 ms on a guest) and the old fixed 30 snapshots a second.
 */
const OLD = { query: 'interp=fixed', snapshotsPerSecond: 30 } as const;
/** The current behaviour: adaptive delays, the snapshot rate the host picks for the room. */
const NEW = { query: '' } as const;

/** One link's figures for one behaviour; ms, per trial. */
interface RoundFigures {
  hostToGuest: number[];
  guestToHost: number[];
  hostOwn: number[];
  guestOwn: number[];
  /** Frames the other page drew of the mover during trials, and how many of them snapped / were extrapolated. */
  remoteFrames: number;
  snapped: number;
  /** null while the view does not say which frames it extrapolated. */
  extrapolated: number | null;
  /** Per trial, the largest distance (arena units) the other page drew the mover from its lag-aligned own path. */
  pathError: number[];
  /** The other page's interpolation delay at each frame it drew during trials, ms. */
  delays: number[];
  /** Trials a wall or obstacle blocked (no own movement), retried with another key. */
  blocked: number;
  clockUncertainty: number;
  /** The host's snapshot rate as each trial started, a second. */
  snapshotRates: number[];
}

const now = () => performance.now();

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const end = now() + timeoutMs;
  while (now() < end) {
    if (await condition()) return true;
    await new Promise((r) => setTimeout(r, 15));
  }
  return false;
}

/**
 * One player's samples from a page's frames, on the bench's clock: at the time each frame was drawn (when the pixel
 * exists: latencies), or at the moment it was sampled for (where the player was then: speeds, paths).
 */
function samples(frames: readonly ProbedFrame[], which: Which, clock: ClockOffset, at: 'drawn' | 'sampled') {
  const out: DrawnSample[] = [];
  for (const [drawn, sampled, self, other] of frames) {
    const p = which === 'self' ? self : other;
    if (p === null) continue;
    const t = (at === 'drawn' ? drawn : sampled) - clock.offset;
    out.push({ t, x: p[0], y: p[1], ...(p[2] === null ? {} : { extrapolated: p[2] }) });
  }
  return out;
}

/** Arena units one CSS pixel of `page`'s canvas is. */
async function unitsPerPixel(page: Page): Promise<number> {
  const size = (await page.evaluate(
    `(() => { const c = document.querySelector('[data-testid="game-canvas"]'); return [c.clientWidth, c.clientHeight]; })()`,
  )) as [number, number];
  const { scale } = fitArena(DEFAULT_ARENA.width, DEFAULT_ARENA.height, size[0], size[1], ARENA_MARGIN);
  if (!(scale > 0)) throw new Error(`key-to-pixel bench: the canvas is ${size[0]}×${size[1]}, too small to measure`);
  return 1 / scale;
}

interface Side {
  readonly page: Page;
  readonly clock: ClockOffset;
  readonly pixel: number;
  /** Keys in pairs of opposites, so alternate trials bring the player back; a blocked pair gives way to the next. */
  readonly keys: string[];
  pair: number;
  trial: number;
}

interface TrialResult {
  own: number;
  remote: number;
  remoteFrames: number;
  snapped: number;
  extrapolated: number | null;
  pathError: number;
  delays: number[];
}

/** One keydown on `mover`, held until `observer` drew it (and HOLD_MS), then released and waited out. */
async function trial(mover: Side, observer: Side): Promise<TrialResult | 'blocked' | 'unseen'> {
  await Promise.all([recorder.arm(mover.page), recorder.arm(observer.page)]);
  const key = mover.keys[(mover.pair % 2) * 2 + (mover.trial % 2)]!;
  // A frame or two before the key, so each page has the start position.
  await waitUntil(() => recorder.stillFor(observer.page, 'other', 30, observer.pixel / 10), 1000);
  const pressed = now();
  await mover.page.keyboard.down(key);
  // Seen by the other page, or given up early when the mover's own page does not move it either (a wall).
  const seen = await waitUntil(
    async () =>
      (await recorder.movedSince(observer.page, 'other', observer.pixel)) ||
      (now() - pressed > BLOCKED_MS && !(await recorder.movedSince(mover.page, 'self', mover.pixel))),
    TRIAL_TIMEOUT_MS,
  );
  const held = now() - pressed;
  if (held < HOLD_MS) await new Promise((r) => setTimeout(r, HOLD_MS - held));
  await mover.page.keyboard.up(key);
  await waitUntil(
    async () =>
      (await recorder.stillFor(observer.page, 'other', STILL_MS, observer.pixel / 10)) &&
      (await recorder.stillFor(mover.page, 'self', STILL_MS, mover.pixel / 10)),
    TRIAL_TIMEOUT_MS,
  );
  const [own, remote] = await Promise.all([recorder.take(mover.page), recorder.take(observer.page)]);
  mover.trial += 1;
  if (own.keyAt === null) throw new Error('key-to-pixel bench: the keydown never reached the page');
  const keyAt = own.keyAt - mover.clock.offset;
  const ownTrace = samples(own.frames, 'self', mover.clock, 'drawn');
  const remoteTrace = samples(remote.frames, 'other', observer.clock, 'drawn');
  const ownAt = firstMove(ownTrace, keyAt, mover.pixel);
  if (ownAt === undefined) {
    mover.pair += 1;
    return 'blocked';
  }
  const remoteAt = firstMove(remoteTrace, keyAt, observer.pixel);
  if (!seen || remoteAt === undefined) return 'unseen';
  const ownPath = samples(own.frames, 'self', mover.clock, 'sampled');
  const remotePath = samples(remote.frames, 'other', observer.clock, 'sampled');
  const drawn = remotePath.filter((s) => s.t >= keyAt);
  const known = drawn.filter((s) => s.extrapolated !== undefined);
  const errors = pathErrors(remotePath, ownPath, remoteAt - ownAt, remoteAt);
  return {
    own: ownAt - keyAt,
    remote: remoteAt - keyAt,
    remoteFrames: drawn.length,
    snapped: snappedFrames(drawn, RULES.maxSpeed / 1000),
    extrapolated: known.length === 0 ? null : known.filter((s) => s.extrapolated).length,
    pathError: errors.length === 0 ? 0 : Math.max(...errors),
    delays: remote.frames.flatMap((f) => (f[4] === null ? [] : [f[4]])),
  };
}

/**
 * The clock of `page` against the bench's, by their time origins (each page has its own browser, so its own), checked
 * against round trips: under load a round trip through Playwright takes tens of ms, too coarse to set a clock by.
 */
async function pageClock(page: Page): Promise<ClockOffset> {
  return originOffset(await recorder.origin(page), performance.timeOrigin, await readPageClock(page, now));
}

/** TRIALS trials each way, host and guest moving in turn, in one playing round. */
async function measureRound(round: PlayingRound): Promise<RoundFigures> {
  const [hostClock, guestClock] = [await pageClock(round.host), await pageClock(round.guest)];
  const host: Side = {
    page: round.host,
    clock: hostClock,
    pixel: await unitsPerPixel(round.host),
    keys: ['KeyD', 'KeyA', 'KeyS', 'KeyW'],
    pair: 0,
    trial: 0,
  };
  const guest: Side = {
    ...host,
    page: round.guest,
    clock: guestClock,
    pixel: await unitsPerPixel(round.guest),
    keys: ['KeyA', 'KeyD', 'KeyW', 'KeyS'],
  };
  const figures: RoundFigures = {
    hostToGuest: [],
    guestToHost: [],
    hostOwn: [],
    guestOwn: [],
    remoteFrames: 0,
    snapped: 0,
    extrapolated: null,
    pathError: [],
    delays: [],
    blocked: 0,
    clockUncertainty: Math.max(hostClock.uncertainty, guestClock.uncertainty),
    snapshotRates: [],
  };
  const limit = TRIALS * 4;
  for (let attempt = 0; attempt < limit; attempt++) {
    if (figures.hostToGuest.length >= TRIALS && figures.guestToHost.length >= TRIALS) break;
    const hostMoves = figures.hostToGuest.length <= figures.guestToHost.length;
    const [mover, observer] = hostMoves ? [host, guest] : [guest, host];
    figures.snapshotRates.push(round.hostSnapshotRate() ?? Number.NaN);
    const result = await trial(mover, observer);
    if (result === 'blocked') figures.blocked += 1;
    if (typeof result !== 'object') continue;
    (hostMoves ? figures.hostToGuest : figures.guestToHost).push(result.remote);
    (hostMoves ? figures.hostOwn : figures.guestOwn).push(result.own);
    figures.remoteFrames += result.remoteFrames;
    figures.snapped += result.snapped;
    if (result.extrapolated !== null) figures.extrapolated = (figures.extrapolated ?? 0) + result.extrapolated;
    figures.pathError.push(result.pathError);
    figures.delays.push(...result.delays);
  }
  if (figures.hostToGuest.length < TRIALS || figures.guestToHost.length < TRIALS) {
    throw new Error(
      `key-to-pixel bench: only ${figures.hostToGuest.length} host and ${figures.guestToHost.length} guest trials ` +
        `of ${TRIALS} in ${limit} attempts (${figures.blocked} blocked)`,
    );
  }
  return figures;
}

async function measure(
  rendererDir: string,
  link: DevLinkProfile | null,
  behaviour: Pick<RoundSetup, 'query' | 'snapshotsPerSecond'>,
): Promise<RoundFigures> {
  const { query } = behaviour;
  const started = now();
  const round = await startPlayingRound({ rendererDir, link, ...behaviour });
  const playing = now();
  try {
    const figures = await measureRound(round);
    // This section takes minutes: say where it is (stderr, so the table on stdout stays clean).
    const what = `${link ? 'conditioned' : 'clean'}${query ? `, ${query}` : ''}`;
    const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
    console.error(
      `key to pixel (${what}): round started in ${s(playing - started)}, ${2 * TRIALS} trials in ${s(now() - playing)} (${figures.blocked} blocked)`,
    );
    return figures;
  } finally {
    await round.close();
  }
}

/** The rows of one link: the current behaviour's figures against the old fixed delays'. */
function rows(label: string, current: RoundFigures, old: RoundFigures, remoteGoal: number[]): BenchResult[] {
  const row = (name: string, pick: (f: RoundFigures) => number, unit = 'ms'): BenchResult => ({
    name: `${label}: ${name}`,
    value: pick(current),
    unit,
    baseline: pick(old),
  });
  const goal = (ms: number) => `goal ≤ ${Math.round(ms)} ms`;
  const share = (f: RoundFigures, n: number | null) => (n === null ? Number.NaN : (100 * n) / f.remoteFrames);
  return [
    row(`host moves → guest sees, median (${goal(remoteGoal[0]!)})`, (f) => percentile(f.hostToGuest, 50)),
    row('host moves → guest sees, p95', (f) => percentile(f.hostToGuest, 95)),
    row(`guest moves → host sees, median (${goal(remoteGoal[1]!)})`, (f) => percentile(f.guestToHost, 50)),
    row('guest moves → host sees, p95', (f) => percentile(f.guestToHost, 95)),
    row(`host's own circle moves, median (${goal(35)})`, (f) => percentile(f.hostOwn, 50)),
    row("host's own circle moves, p95", (f) => percentile(f.hostOwn, 95)),
    row(`guest's own circle moves, median (${goal(35)})`, (f) => percentile(f.guestOwn, 50)),
    row("guest's own circle moves, p95", (f) => percentile(f.guestOwn, 95)),
    row(
      'other page: snapped frames (a step faster than a player runs), of frames drawn',
      (f) => share(f, f.snapped),
      '%',
    ),
    row(
      `other page: extrapolated frames (goal ≤ 1%)${current.extrapolated === null ? ' — the view does not report them' : ''}`,
      (f) => share(f, f.extrapolated),
      '%',
    ),
    row(
      `other page: position error vs the mover's own screen (lag-aligned), median trial's worst frame (goal ≤ ${RULES.playerRadius}, one radius)`,
      (f) => percentile(f.pathError, 50),
      'units',
    ),
    row('other page: same, worst trial', (f) => Math.max(...f.pathError), 'units'),
    row('other page: interpolation delay, median of frames drawn', (f) => percentile(f.delays, 50)),
    row('other page: interpolation delay, p95 of frames drawn', (f) => percentile(f.delays, 95)),
    row(
      "host's snapshot rate as a trial starts: trials at 60 a second",
      (f) => (100 * f.snapshotRates.filter((r) => r === 60).length) / f.snapshotRates.length,
      '%',
    ),
    row(
      'page clocks (set by time origins): furthest a page reading fell outside its round trip (0: consistent)',
      (f) => f.clockUncertainty,
    ),
  ];
}

/**
 * Key to pixel, in two Chromium pages on two backends (loopback): per trial a keydown on one page, then the time
 * until that player's circle is drawn ≥ 1 px away on the other page and on its own, both directions, TRIALS each;
 * on a clean link and through the conditioner, each beside the old fixed delays in the same run. Times are from the
 * keydown event's time to the animation frame that drew the move (presentation adds up to one frame); both pages'
 * clocks are set against the bench's by their time origins, checked against 15 round trips each.
 */
export async function benchKeyToPixel(): Promise<BenchResult[]> {
  const outDir = await mkdtemp(join(tmpdir(), 'lan-party-key-to-pixel-'));
  try {
    const rendererDir = await buildRenderer(outDir);
    const clean = await measure(rendererDir, null, NEW);
    const cleanOld = await measure(rendererDir, null, OLD);
    const conditioned = await measure(rendererDir, CONDITIONED, NEW);
    const conditionedOld = await measure(rendererDir, CONDITIONED, OLD);
    // Through the conditioner: remote within twice the clean figure plus the link's round trip.
    const loose = [clean.hostToGuest, clean.guestToHost].map((t) => 2 * percentile(t, 50) + CONDITIONED_RTT_MS);
    const link = `${CONDITIONED.latencyMs} ± ${CONDITIONED.jitterMs} ms, ${CONDITIONED.loss * 100}% loss`;
    return [
      ...rows(`clean, ${TRIALS} trials each way`, clean, cleanOld, [70, 70]),
      ...rows(`${link}, ${TRIALS} trials each way`, conditioned, conditionedOld, loose),
    ];
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
